
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'mcpctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'mcpctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'mcpctl' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every server with its transport, target, whether it is enabled, and its source file')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List every server with its transport, target, whether it is enabled, and its source file')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server''s full definition')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Show one server''s full definition')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a server from the MCP Registry, a URL or a command, after validating it')
            [CompletionResult]::new('add-json', 'add-json', [CompletionResultType]::ParameterValue, 'Add a server from its JSON entry (Claude Code''s `mcp add-json`)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Connect to servers, list their tools, and report what is wrong')
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Pin what each server launches and what its tools claim, in a lockfile')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Resolve unpinned package launches to exact versions, in place')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Accept a server''s drift from the lockfile: show it, then update the lock')
            [CompletionResult]::new('clients', 'clients', [CompletionResultType]::ParameterValue, 'List the agent hosts'' MCP configuration files found here')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Copy servers from an agent host''s file into mcpctl''s')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write servers into an agent host''s own file, in its shape')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove servers from their definition files')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove servers from their definition files')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable servers (keeps the definition, flips its state)')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable servers (keeps the definition, flips its state)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the official MCP Registry for servers to install')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start servers under the supervisor and wait until they are ready')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop supervised servers (TERM, grace, KILL, reap)')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Stop then start servers, with new binding and catalog ids')
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Re-list the tools of ready servers')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the state of supervised servers')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'Show a running server''s tool catalog')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Call a tool of a running server (or --direct, without the supervisor)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Show a supervised server''s stderr log')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the granted tools of the supervised servers to an agent host over MCP')
            [CompletionResult]::new('grant', 'grant', [CompletionResultType]::ParameterValue, 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Take back tools granted to `mcpctl serve`')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Print a server''s sandbox rules as its launch builds them, or set its policy')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Sign in to a remote server with OAuth and store its tokens')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Revoke a server''s OAuth tokens and delete them here')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Inspect OAuth sign-ins (`mcpctl auth status`)')
            [CompletionResult]::new('supervisor', 'supervisor', [CompletionResultType]::ParameterValue, 'Run, start, stop or inspect the supervisor daemon itself')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;list' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values instead of <redacted> (JSON only)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;ls' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values instead of <redacted> (JSON only)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;show' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values instead of <redacted>')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;get' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values instead of <redacted>')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;add' {
            [CompletionResult]::new('--package', '--package', [CompletionResultType]::ParameterName, 'Registry: install this package kind (npm, pypi, oci), optionally with its transport (npm:stdio, npm:streamable-http)')
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'Registry: install the hosted endpoint (optionally of this transport)')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'Registry: a package argument or URL variable, as NAME=value (repeatable)')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry base URL (used only when adding by registry name)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Remote server endpoint (https, or http to localhost). With --command, a local HTTP server: mcpctl launches the command, then connects here')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Transport: stdio for a command; for a URL, streamable-http (alias http) or sse (default: found by connecting, as the MCP spec says: Streamable HTTP, else legacy SSE; the one that answered is saved)')
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'Transport: stdio for a command; for a URL, streamable-http (alias http) or sse (default: found by connecting, as the MCP spec says: Streamable HTTP, else legacy SSE; the one that answered is saved)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'Request header for a URL, as ''Name: value'' (repeatable)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'Request header for a URL, as ''Name: value'' (repeatable)')
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'Program to launch for a stdio server (on PATH, or a path)')
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'Arguments for --command, comma-separated (or put them after --)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'Environment variable for the child, as NAME=value (repeatable)')
            [CompletionResult]::new('--env', '--env', [CompletionResultType]::ParameterName, 'Environment variable for the child, as NAME=value (repeatable)')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'Working directory for the child process')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Server name (default: derived from the package or host)')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Human-readable label')
            [CompletionResult]::new('--restart', '--restart', [CompletionResultType]::ParameterName, 'Restart it on failure when supervised')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'Seconds allowed for connecting and listing tools (default 30)')
            [CompletionResult]::new('--protocol', '--protocol', [CompletionResultType]::ParameterName, 'The MCP protocol version to speak, instead of offering 2025-11-25 and falling back to the stateless 2026-07-28')
            [CompletionResult]::new('--auth', '--auth', [CompletionResultType]::ParameterName, 'Sign in with OAuth: saves the entry without a connection check; then run `mcpctl login NAME`')
            [CompletionResult]::new('--grant', '--grant', [CompletionResultType]::ParameterName, 'OAuth grant (default: authorization-code)')
            [CompletionResult]::new('--client-id', '--client-id', [CompletionResultType]::ParameterName, 'A client id registered with the authorization server beforehand')
            [CompletionResult]::new('--client-secret', '--client-secret', [CompletionResultType]::ParameterName, 'That client''s secret, as a ''${VAR}'' reference (never a literal)')
            [CompletionResult]::new('--token-endpoint-auth', '--token-endpoint-auth', [CompletionResultType]::ParameterName, 'Token endpoint authentication (default: what the server advertises)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'A PEM private key for private-key-jwt, as a ''${VAR}'' reference (ES256 or RS256, from the key)')
            [CompletionResult]::new('--oauth-scope', '--oauth-scope', [CompletionResultType]::ParameterName, 'OAuth scopes to ask for, space-separated (default: what the server names). (-s/--scope is Claude Code''s file scope.)')
            [CompletionResult]::new('--client-metadata-url', '--client-metadata-url', [CompletionResultType]::ParameterName, 'This client''s metadata document URL (https), its client id where the server supports client ID metadata documents')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'How a local server is contained: none (no network), network (files contained, outbound open: the default for a command), off (unconfined), or a ToolHive permission-profile JSON file')
            [CompletionResult]::new('--allow-read', '--allow-read', [CompletionResultType]::ParameterName, 'A path the server may read, absolute or ~/… (repeatable; makes a profile)')
            [CompletionResult]::new('--allow-write', '--allow-write', [CompletionResultType]::ParameterName, 'A path the server may write, absolute or ~/… (repeatable; makes a profile)')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'A host the server may reach through mcpctl''s egress proxy, every other one refused (repeatable; makes a profile)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'File to write (default: the first definition file)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--as-remote', '--as-remote', [CompletionResultType]::ParameterName, 'Registry: store a package that serves HTTP as a remote URL instead of a process for the supervisor to start')
            [CompletionResult]::new('--allow-deprecated', '--allow-deprecated', [CompletionResultType]::ParameterName, 'Registry: install a version its publisher deprecated')
            [CompletionResult]::new('--trust-runtime-args', '--trust-runtime-args', [CompletionResultType]::ParameterName, 'Registry: write launcher options and settings the publisher gave that change what is fetched or widen what runs (--registry, another package, --privileged, a host path), instead of refusing them')
            [CompletionResult]::new('--store-secret', '--store-secret', [CompletionResultType]::ParameterName, 'Registry: write secret values literally instead of ${VAR} references')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Registry: ask the registry again instead of using cached answers')
            [CompletionResult]::new('--disabled', '--disabled', [CompletionResultType]::ParameterName, 'Add it disabled')
            [CompletionResult]::new('--autostart', '--autostart', [CompletionResultType]::ParameterName, 'Start it when the supervisor starts')
            [CompletionResult]::new('--pin', '--pin', [CompletionResultType]::ParameterName, 'Resolve an unpinned or ranged npm/PyPI package to the exact version its registry serves now, and write that (see `mcpctl pin --help`)')
            [CompletionResult]::new('--allow-http', '--allow-http', [CompletionResultType]::ParameterName, 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep')
            [CompletionResult]::new('--require-pin', '--require-pin', [CompletionResultType]::ParameterName, 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--no-check', '--no-check', [CompletionResultType]::ParameterName, 'Do not connect to the server before saving')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Validate and print what would be written, but write nothing')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values in the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;add-json' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'File to write (default: the first definition file)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--allow-http', '--allow-http', [CompletionResultType]::ParameterName, 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep')
            [CompletionResult]::new('--require-pin', '--require-pin', [CompletionResultType]::ParameterName, 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--no-check', '--no-check', [CompletionResultType]::ParameterName, 'Do not connect to the server before saving')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Validate and print what would be written, but write nothing')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values in the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;check' {
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many servers to check at once (default: all, at most 32)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many servers to check at once (default: all, at most 32)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Budget per server in seconds, overriding each connect_timeout')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--tools', '--tools', [CompletionResultType]::ParameterName, 'List each server''s tool names')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat lint warnings as failures')
            [CompletionResult]::new('--locked', '--locked', [CompletionResultType]::ParameterName, 'Also compare each server with its lockfile (`mcpctl lock`); any drift, or a server not in the lock, fails with exit 4')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;lock' {
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'How many servers to connect to at once (default: all, at most 32)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'How many servers to connect to at once (default: all, at most 32)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Budget per server in seconds, overriding each connect_timeout')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Compare with the lockfile instead of writing it; drift exits 4')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;pin' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Pin every server whose package launch is not pinned yet')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Resolve and print what would change, but write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;approve' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Budget in seconds, overriding the server''s connect_timeout')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the difference; write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;clients' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The client, or the path of its file')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'File to write (default: the first definition file)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Overwrite entries of the same name that differ')
            [CompletionResult]::new('--allow-http', '--allow-http', [CompletionResultType]::ParameterName, 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep')
            [CompletionResult]::new('--require-pin', '--require-pin', [CompletionResultType]::ParameterName, 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--no-check', '--no-check', [CompletionResultType]::ParameterName, 'Do not connect to the server before saving')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Validate and print what would be written, but write nothing')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values in the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;export' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The client, or the path of its file')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Overwrite entries of the same name that differ')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Connect to each server before writing it, as `add` does')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be written, write nothing')
            [CompletionResult]::new('--show-secrets', '--show-secrets', [CompletionResultType]::ParameterName, 'Show literal env and header values in the output')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;remove' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation on a terminal')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation on a terminal')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Drop comments that an edit cannot keep')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;rm' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation on a terminal')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation on a terminal')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Drop comments that an edit cannot keep')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;enable' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;disable' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;search' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N results')
            [CompletionResult]::new('--registry', '--registry', [CompletionResultType]::ParameterName, 'Registry base URL')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Follow every page and show all results')
            [CompletionResult]::new('--include-deprecated', '--include-deprecated', [CompletionResultType]::ParameterName, 'Also show deprecated and deleted entries')
            [CompletionResult]::new('--refresh', '--refresh', [CompletionResultType]::ParameterName, 'Ask the registry again instead of using cached answers')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;start' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every server (enabled ones for `start`, running ones otherwise)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;stop' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every server (enabled ones for `start`, running ones otherwise)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;restart' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every server (enabled ones for `start`, running ones otherwise)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;refresh' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every server (enabled ones for `start`, running ones otherwise)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;status' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every server, as a table (the same as no name)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;tools' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;call' {
            [CompletionResult]::new('--args', '--args', [CompletionResultType]::ParameterName, 'The arguments as one JSON object')
            [CompletionResult]::new('--arg', '--arg', [CompletionResultType]::ParameterName, 'One argument, KEY=VALUE; VALUE is parsed as JSON when it can be, else taken as a string (repeatable)')
            [CompletionResult]::new('--catalog-id', '--catalog-id', [CompletionResultType]::ParameterName, 'Refuse the call unless this is still the server''s catalog id')
            [CompletionResult]::new('--binding-id', '--binding-id', [CompletionResultType]::ParameterName, 'Refuse the call unless this is still the server''s binding id')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for the answer (default 60)')
            [CompletionResult]::new('--output-dir', '--output-dir', [CompletionResultType]::ParameterName, 'Write images and audio here')
            [CompletionResult]::new('--answers', '--answers', [CompletionResultType]::ParameterName, 'Answer the server''s questions (elicitation) with these values, by field name: a JSON object, or @FILE holding one')
            [CompletionResult]::new('--progress', '--progress', [CompletionResultType]::ParameterName, 'How to show the server''s progress on stderr: a bar on a terminal (auto), JSON lines (json), or nothing (none). Never on stdout')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--direct', '--direct', [CompletionResultType]::ParameterName, 'Connect directly, without the supervisor (spawns and ends the server)')
            [CompletionResult]::new('--no-validate', '--no-validate', [CompletionResultType]::ParameterName, 'Send the arguments even if the schema cannot be compiled or they do not match')
            [CompletionResult]::new('--accept-defaults', '--accept-defaults', [CompletionResultType]::ParameterName, 'Accept a question whose every required field has a default, with the defaults, instead of declining it (no terminal needed)')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open a URL the server asks the user to visit with $BROWSER (it is always printed; mcpctl never fetches it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;logs' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many lines from the end')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'How many lines from the end')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Keep printing new lines as they arrive (until Ctrl-C)')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep printing new lines as they arrive (until Ctrl-C)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;serve' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP at ADDR (default 127.0.0.1:8765), endpoint /mcp')
            [CompletionResult]::new('--print-config', '--print-config', [CompletionResultType]::ParameterName, 'Print the entry an agent host needs to launch `serve --stdio` (with these --file, --profile, --separator and --no-start), and exit')
            [CompletionResult]::new('--write-config', '--write-config', [CompletionResultType]::ParameterName, 'Write that entry into the agent host''s own file (its project file here when it has one, else its user file; as `mcpctl export --to CLIENT` writes), keeping the rest of the file, and exit')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Serve this profile''s grants instead of the default ones')
            [CompletionResult]::new('--separator', '--separator', [CompletionResultType]::ParameterName, 'Put this between server and tool in the names agents see')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds a call may take (default 60)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--stdio', '--stdio', [CompletionResultType]::ParameterName, 'Speak MCP over stdin and stdout (for agent hosts that launch a command)')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Allow --http to bind a non-loopback address (no TLS: use a proxy)')
            [CompletionResult]::new('--print-token', '--print-token', [CompletionResultType]::ParameterName, 'Print the HTTP bearer token (creating it if there is none) and exit')
            [CompletionResult]::new('--rotate-token', '--rotate-token', [CompletionResultType]::ParameterName, 'Replace the HTTP bearer token with a new one, print it and exit')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'With --write-config: replace an entry of that name that differs')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'Start every granted server that is not running before serving (by default they start in the background, and agents hear of their tools)')
            [CompletionResult]::new('--no-start', '--no-start', [CompletionResultType]::ParameterName, 'Start no server: serve only those already running')
            [CompletionResult]::new('--audit-args', '--audit-args', [CompletionResultType]::ParameterName, 'Record argument values in the audit log too (they may hold secrets)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;grant' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Grant to this profile (`serve --profile NAME`) instead of the default')
            [CompletionResult]::new('--separator', '--separator', [CompletionResultType]::ParameterName, 'The separator `serve` will put between server and tool (checked against the MCP tool-name rules)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--all-current', '--all-current', [CompletionResultType]::ParameterName, 'Grant every tool the server lists now (never tools that appear later)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;revoke' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Revoke from this profile instead of the default')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;sandbox' {
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Write this policy into the entry: none, network, off or PROFILE.json')
            [CompletionResult]::new('--allow-read', '--allow-read', [CompletionResultType]::ParameterName, 'A path the server may read, absolute or ~/… (repeatable; makes a profile)')
            [CompletionResult]::new('--allow-write', '--allow-write', [CompletionResultType]::ParameterName, 'A path the server may write, absolute or ~/… (repeatable; makes a profile)')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'A host the server may reach through mcpctl''s egress proxy, every other one refused (repeatable; makes a profile)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;login' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Scopes to ask for, space-separated (default: the definition''s `scope`, else what the server''s challenge or metadata names, else none)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds allowed for the whole sign-in, browser included')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--no-browser', '--no-browser', [CompletionResultType]::ParameterName, 'Only print the sign-in URL; do not open a browser')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;logout' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;auth' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;auth;status' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;auth;help' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;auth;help;status' {
            break
        }
        'mcpctl;auth;help;help' {
            break
        }
        'mcpctl;supervisor' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the supervisor in the foreground, logging to stderr')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start the supervisor detached (does nothing if it runs)')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every server, then the supervisor')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the supervisor''s pid, uptime, socket, sources and servers')
            [CompletionResult]::new('reload', 'reload', [CompletionResultType]::ParameterValue, 'Re-read the definition files now (they are also watched)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;supervisor;run' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;supervisor;start' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;supervisor;stop' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;supervisor;status' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;supervisor;reload' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;supervisor;help' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the supervisor in the foreground, logging to stderr')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start the supervisor detached (does nothing if it runs)')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every server, then the supervisor')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the supervisor''s pid, uptime, socket, sources and servers')
            [CompletionResult]::new('reload', 'reload', [CompletionResultType]::ParameterValue, 'Re-read the definition files now (they are also watched)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;supervisor;help;run' {
            break
        }
        'mcpctl;supervisor;help;start' {
            break
        }
        'mcpctl;supervisor;help;stop' {
            break
        }
        'mcpctl;supervisor;help;status' {
            break
        }
        'mcpctl;supervisor;help;reload' {
            break
        }
        'mcpctl;supervisor;help;help' {
            break
        }
        'mcpctl;completions' {
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print machine-readable JSON on stdout instead of text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no notes or progress on stderr (warnings and errors still)')
            [CompletionResult]::new('--no-spawn', '--no-spawn', [CompletionResultType]::ParameterName, 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('--allow-insecure-file', '--allow-insecure-file', [CompletionResultType]::ParameterName, 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'mcpctl;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every server with its transport, target, whether it is enabled, and its source file')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one server''s full definition')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a server from the MCP Registry, a URL or a command, after validating it')
            [CompletionResult]::new('add-json', 'add-json', [CompletionResultType]::ParameterValue, 'Add a server from its JSON entry (Claude Code''s `mcp add-json`)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Connect to servers, list their tools, and report what is wrong')
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Pin what each server launches and what its tools claim, in a lockfile')
            [CompletionResult]::new('pin', 'pin', [CompletionResultType]::ParameterValue, 'Resolve unpinned package launches to exact versions, in place')
            [CompletionResult]::new('approve', 'approve', [CompletionResultType]::ParameterValue, 'Accept a server''s drift from the lockfile: show it, then update the lock')
            [CompletionResult]::new('clients', 'clients', [CompletionResultType]::ParameterValue, 'List the agent hosts'' MCP configuration files found here')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Copy servers from an agent host''s file into mcpctl''s')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write servers into an agent host''s own file, in its shape')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove servers from their definition files')
            [CompletionResult]::new('enable', 'enable', [CompletionResultType]::ParameterValue, 'Enable servers (keeps the definition, flips its state)')
            [CompletionResult]::new('disable', 'disable', [CompletionResultType]::ParameterValue, 'Disable servers (keeps the definition, flips its state)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search the official MCP Registry for servers to install')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start servers under the supervisor and wait until they are ready')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop supervised servers (TERM, grace, KILL, reap)')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Stop then start servers, with new binding and catalog ids')
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Re-list the tools of ready servers')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the state of supervised servers')
            [CompletionResult]::new('tools', 'tools', [CompletionResultType]::ParameterValue, 'Show a running server''s tool catalog')
            [CompletionResult]::new('call', 'call', [CompletionResultType]::ParameterValue, 'Call a tool of a running server (or --direct, without the supervisor)')
            [CompletionResult]::new('logs', 'logs', [CompletionResultType]::ParameterValue, 'Show a supervised server''s stderr log')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the granted tools of the supervised servers to an agent host over MCP')
            [CompletionResult]::new('grant', 'grant', [CompletionResultType]::ParameterValue, 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Take back tools granted to `mcpctl serve`')
            [CompletionResult]::new('sandbox', 'sandbox', [CompletionResultType]::ParameterValue, 'Print a server''s sandbox rules as its launch builds them, or set its policy')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Sign in to a remote server with OAuth and store its tokens')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Revoke a server''s OAuth tokens and delete them here')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Inspect OAuth sign-ins (`mcpctl auth status`)')
            [CompletionResult]::new('supervisor', 'supervisor', [CompletionResultType]::ParameterValue, 'Run, start, stop or inspect the supervisor daemon itself')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'mcpctl;help;list' {
            break
        }
        'mcpctl;help;show' {
            break
        }
        'mcpctl;help;add' {
            break
        }
        'mcpctl;help;add-json' {
            break
        }
        'mcpctl;help;check' {
            break
        }
        'mcpctl;help;lock' {
            break
        }
        'mcpctl;help;pin' {
            break
        }
        'mcpctl;help;approve' {
            break
        }
        'mcpctl;help;clients' {
            break
        }
        'mcpctl;help;import' {
            break
        }
        'mcpctl;help;export' {
            break
        }
        'mcpctl;help;remove' {
            break
        }
        'mcpctl;help;enable' {
            break
        }
        'mcpctl;help;disable' {
            break
        }
        'mcpctl;help;search' {
            break
        }
        'mcpctl;help;start' {
            break
        }
        'mcpctl;help;stop' {
            break
        }
        'mcpctl;help;restart' {
            break
        }
        'mcpctl;help;refresh' {
            break
        }
        'mcpctl;help;status' {
            break
        }
        'mcpctl;help;tools' {
            break
        }
        'mcpctl;help;call' {
            break
        }
        'mcpctl;help;logs' {
            break
        }
        'mcpctl;help;serve' {
            break
        }
        'mcpctl;help;grant' {
            break
        }
        'mcpctl;help;revoke' {
            break
        }
        'mcpctl;help;sandbox' {
            break
        }
        'mcpctl;help;login' {
            break
        }
        'mcpctl;help;logout' {
            break
        }
        'mcpctl;help;auth' {
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires')
            break
        }
        'mcpctl;help;auth;status' {
            break
        }
        'mcpctl;help;supervisor' {
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Run the supervisor in the foreground, logging to stderr')
            [CompletionResult]::new('start', 'start', [CompletionResultType]::ParameterValue, 'Start the supervisor detached (does nothing if it runs)')
            [CompletionResult]::new('stop', 'stop', [CompletionResultType]::ParameterValue, 'Stop every server, then the supervisor')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show the supervisor''s pid, uptime, socket, sources and servers')
            [CompletionResult]::new('reload', 'reload', [CompletionResultType]::ParameterValue, 'Re-read the definition files now (they are also watched)')
            break
        }
        'mcpctl;help;supervisor;run' {
            break
        }
        'mcpctl;help;supervisor;start' {
            break
        }
        'mcpctl;help;supervisor;stop' {
            break
        }
        'mcpctl;help;supervisor;status' {
            break
        }
        'mcpctl;help;supervisor;reload' {
            break
        }
        'mcpctl;help;completions' {
            break
        }
        'mcpctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
