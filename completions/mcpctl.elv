
use builtin;
use str;

set edit:completion:arg-completer[mcpctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'mcpctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'mcpctl'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List every server with its transport, target, whether it is enabled, and its source file'
            cand ls 'List every server with its transport, target, whether it is enabled, and its source file'
            cand show 'Show one server''s full definition'
            cand get 'Show one server''s full definition'
            cand add 'Add a server from the MCP Registry, a URL or a command, after validating it'
            cand add-json 'Add a server from its JSON entry (Claude Code''s `mcp add-json`)'
            cand check 'Connect to servers, list their tools, and report what is wrong'
            cand lock 'Pin what each server launches and what its tools claim, in a lockfile'
            cand pin 'Resolve unpinned package launches to exact versions, in place'
            cand approve 'Accept a server''s drift from the lockfile: show it, then update the lock'
            cand clients 'List the agent hosts'' MCP configuration files found here'
            cand import 'Copy servers from an agent host''s file into mcpctl''s'
            cand export 'Write servers into an agent host''s own file, in its shape'
            cand remove 'Remove servers from their definition files'
            cand rm 'Remove servers from their definition files'
            cand enable 'Enable servers (keeps the definition, flips its state)'
            cand disable 'Disable servers (keeps the definition, flips its state)'
            cand search 'Search the official MCP Registry for servers to install'
            cand start 'Start servers under the supervisor and wait until they are ready'
            cand stop 'Stop supervised servers (TERM, grace, KILL, reap)'
            cand restart 'Stop then start servers, with new binding and catalog ids'
            cand refresh 'Re-list the tools of ready servers'
            cand status 'Show the state of supervised servers'
            cand tools 'Show a running server''s tool catalog'
            cand call 'Call a tool of a running server (or --direct, without the supervisor)'
            cand logs 'Show a supervised server''s stderr log'
            cand serve 'Serve the granted tools of the supervised servers to an agent host over MCP'
            cand grant 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)'
            cand revoke 'Take back tools granted to `mcpctl serve`'
            cand sandbox 'Print a server''s sandbox rules as its launch builds them, or set its policy'
            cand login 'Sign in to a remote server with OAuth and store its tokens'
            cand logout 'Revoke a server''s OAuth tokens and delete them here'
            cand auth 'Inspect OAuth sign-ins (`mcpctl auth status`)'
            cand supervisor 'Run, start, stop or inspect the supervisor daemon itself'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;list'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --show-secrets 'Show literal env and header values instead of <redacted> (JSON only)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;ls'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --show-secrets 'Show literal env and header values instead of <redacted> (JSON only)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;show'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --show-secrets 'Show literal env and header values instead of <redacted>'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;get'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --show-secrets 'Show literal env and header values instead of <redacted>'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;add'= {
            cand --package 'Registry: install this package kind (npm, pypi, oci), optionally with its transport (npm:stdio, npm:streamable-http)'
            cand --remote 'Registry: install the hosted endpoint (optionally of this transport)'
            cand --arg 'Registry: a package argument or URL variable, as NAME=value (repeatable)'
            cand --registry 'Registry base URL (used only when adding by registry name)'
            cand --url 'Remote server endpoint (https, or http to localhost). With --command, a local HTTP server: mcpctl launches the command, then connects here'
            cand -t 'Transport: stdio for a command; for a URL, streamable-http (alias http) or sse (default: found by connecting, as the MCP spec says: Streamable HTTP, else legacy SSE; the one that answered is saved)'
            cand --transport 'Transport: stdio for a command; for a URL, streamable-http (alias http) or sse (default: found by connecting, as the MCP spec says: Streamable HTTP, else legacy SSE; the one that answered is saved)'
            cand -H 'Request header for a URL, as ''Name: value'' (repeatable)'
            cand --header 'Request header for a URL, as ''Name: value'' (repeatable)'
            cand --command 'Program to launch for a stdio server (on PATH, or a path)'
            cand --args 'Arguments for --command, comma-separated (or put them after --)'
            cand -e 'Environment variable for the child, as NAME=value (repeatable)'
            cand --env 'Environment variable for the child, as NAME=value (repeatable)'
            cand --cwd 'Working directory for the child process'
            cand --name 'Server name (default: derived from the package or host)'
            cand --label 'Human-readable label'
            cand --restart 'Restart it on failure when supervised'
            cand --connect-timeout 'Seconds allowed for connecting and listing tools (default 30)'
            cand --protocol 'The MCP protocol version to speak, instead of offering 2025-11-25 and falling back to the stateless 2026-07-28'
            cand --auth 'Sign in with OAuth: saves the entry without a connection check; then run `mcpctl login NAME`'
            cand --grant 'OAuth grant (default: authorization-code)'
            cand --client-id 'A client id registered with the authorization server beforehand'
            cand --client-secret 'That client''s secret, as a ''${VAR}'' reference (never a literal)'
            cand --token-endpoint-auth 'Token endpoint authentication (default: what the server advertises)'
            cand --client-key 'A PEM private key for private-key-jwt, as a ''${VAR}'' reference (ES256 or RS256, from the key)'
            cand --oauth-scope 'OAuth scopes to ask for, space-separated (default: what the server names). (-s/--scope is Claude Code''s file scope.)'
            cand --client-metadata-url 'This client''s metadata document URL (https), its client id where the server supports client ID metadata documents'
            cand --sandbox 'How a local server is contained: none (no network), network (files contained, outbound open: the default for a command), off (unconfined), or a ToolHive permission-profile JSON file'
            cand --allow-read 'A path the server may read, absolute or ~/… (repeatable; makes a profile)'
            cand --allow-write 'A path the server may write, absolute or ~/… (repeatable; makes a profile)'
            cand --allow-host 'A host the server may reach through mcpctl''s egress proxy, every other one refused (repeatable; makes a profile)'
            cand --to 'File to write (default: the first definition file)'
            cand -s 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --scope 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --as-remote 'Registry: store a package that serves HTTP as a remote URL instead of a process for the supervisor to start'
            cand --allow-deprecated 'Registry: install a version its publisher deprecated'
            cand --trust-runtime-args 'Registry: write launcher options and settings the publisher gave that change what is fetched or widen what runs (--registry, another package, --privileged, a host path), instead of refusing them'
            cand --store-secret 'Registry: write secret values literally instead of ${VAR} references'
            cand --refresh 'Registry: ask the registry again instead of using cached answers'
            cand --disabled 'Add it disabled'
            cand --autostart 'Start it when the supervisor starts'
            cand --pin 'Resolve an unpinned or ranged npm/PyPI package to the exact version its registry serves now, and write that (see `mcpctl pin --help`)'
            cand --allow-http 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
            cand --force 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
            cand --require-pin 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
            cand --no-check 'Do not connect to the server before saving'
            cand --dry-run 'Validate and print what would be written, but write nothing'
            cand --show-secrets 'Show literal env and header values in the output'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;add-json'= {
            cand --to 'File to write (default: the first definition file)'
            cand -s 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --scope 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --allow-http 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
            cand --force 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
            cand --require-pin 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
            cand --no-check 'Do not connect to the server before saving'
            cand --dry-run 'Validate and print what would be written, but write nothing'
            cand --show-secrets 'Show literal env and header values in the output'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;check'= {
            cand -j 'How many servers to check at once (default: all, at most 32)'
            cand --jobs 'How many servers to check at once (default: all, at most 32)'
            cand --timeout 'Budget per server in seconds, overriding each connect_timeout'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --tools 'List each server''s tool names'
            cand --strict 'Treat lint warnings as failures'
            cand --locked 'Also compare each server with its lockfile (`mcpctl lock`); any drift, or a server not in the lock, fails with exit 4'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;lock'= {
            cand -j 'How many servers to connect to at once (default: all, at most 32)'
            cand --jobs 'How many servers to connect to at once (default: all, at most 32)'
            cand --timeout 'Budget per server in seconds, overriding each connect_timeout'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --check 'Compare with the lockfile instead of writing it; drift exits 4'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;pin'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Pin every server whose package launch is not pinned yet'
            cand --dry-run 'Resolve and print what would change, but write nothing'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;approve'= {
            cand --timeout 'Budget in seconds, overriding the server''s connect_timeout'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --dry-run 'Show the difference; write nothing'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;clients'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;import'= {
            cand --from 'The client, or the path of its file'
            cand --to 'File to write (default: the first definition file)'
            cand -s 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --scope 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --replace 'Overwrite entries of the same name that differ'
            cand --allow-http 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
            cand --force 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
            cand --require-pin 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
            cand --no-check 'Do not connect to the server before saving'
            cand --dry-run 'Validate and print what would be written, but write nothing'
            cand --show-secrets 'Show literal env and header values in the output'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;export'= {
            cand --to 'The client, or the path of its file'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --replace 'Overwrite entries of the same name that differ'
            cand --check 'Connect to each server before writing it, as `add` does'
            cand --dry-run 'Print what would be written, write nothing'
            cand --show-secrets 'Show literal env and header values in the output'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;remove'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand -y 'Do not ask for confirmation on a terminal'
            cand --yes 'Do not ask for confirmation on a terminal'
            cand --force 'Drop comments that an edit cannot keep'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;rm'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand -y 'Do not ask for confirmation on a terminal'
            cand --yes 'Do not ask for confirmation on a terminal'
            cand --force 'Drop comments that an edit cannot keep'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;enable'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;disable'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;search'= {
            cand --limit 'Show at most N results'
            cand --registry 'Registry base URL'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Follow every page and show all results'
            cand --include-deprecated 'Also show deprecated and deleted entries'
            cand --refresh 'Ask the registry again instead of using cached answers'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;start'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Every server (enabled ones for `start`, running ones otherwise)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;stop'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Every server (enabled ones for `start`, running ones otherwise)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;restart'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Every server (enabled ones for `start`, running ones otherwise)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;refresh'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Every server (enabled ones for `start`, running ones otherwise)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;status'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all 'Every server, as a table (the same as no name)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;tools'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;call'= {
            cand --args 'The arguments as one JSON object'
            cand --arg 'One argument, KEY=VALUE; VALUE is parsed as JSON when it can be, else taken as a string (repeatable)'
            cand --catalog-id 'Refuse the call unless this is still the server''s catalog id'
            cand --binding-id 'Refuse the call unless this is still the server''s binding id'
            cand --timeout 'Seconds to wait for the answer (default 60)'
            cand --output-dir 'Write images and audio here'
            cand --answers 'Answer the server''s questions (elicitation) with these values, by field name: a JSON object, or @FILE holding one'
            cand --progress 'How to show the server''s progress on stderr: a bar on a terminal (auto), JSON lines (json), or nothing (none). Never on stdout'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --direct 'Connect directly, without the supervisor (spawns and ends the server)'
            cand --no-validate 'Send the arguments even if the schema cannot be compiled or they do not match'
            cand --accept-defaults 'Accept a question whose every required field has a default, with the defaults, instead of declining it (no terminal needed)'
            cand --open 'Open a URL the server asks the user to visit with $BROWSER (it is always printed; mcpctl never fetches it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;logs'= {
            cand -n 'How many lines from the end'
            cand --lines 'How many lines from the end'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand -f 'Keep printing new lines as they arrive (until Ctrl-C)'
            cand --follow 'Keep printing new lines as they arrive (until Ctrl-C)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;serve'= {
            cand --http 'Serve Streamable HTTP at ADDR (default 127.0.0.1:8765), endpoint /mcp'
            cand --print-config 'Print the entry an agent host needs to launch `serve --stdio` (with these --file, --profile, --separator and --no-start), and exit'
            cand --write-config 'Write that entry into the agent host''s own file (its project file here when it has one, else its user file; as `mcpctl export --to CLIENT` writes), keeping the rest of the file, and exit'
            cand --profile 'Serve this profile''s grants instead of the default ones'
            cand --separator 'Put this between server and tool in the names agents see'
            cand --timeout 'Seconds a call may take (default 60)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --stdio 'Speak MCP over stdin and stdout (for agent hosts that launch a command)'
            cand --allow-remote 'Allow --http to bind a non-loopback address (no TLS: use a proxy)'
            cand --print-token 'Print the HTTP bearer token (creating it if there is none) and exit'
            cand --rotate-token 'Replace the HTTP bearer token with a new one, print it and exit'
            cand --replace 'With --write-config: replace an entry of that name that differs'
            cand --start 'Start every granted server that is not running before serving (by default they start in the background, and agents hear of their tools)'
            cand --no-start 'Start no server: serve only those already running'
            cand --audit-args 'Record argument values in the audit log too (they may hold secrets)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;grant'= {
            cand --profile 'Grant to this profile (`serve --profile NAME`) instead of the default'
            cand --separator 'The separator `serve` will put between server and tool (checked against the MCP tool-name rules)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --all-current 'Grant every tool the server lists now (never tools that appear later)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;revoke'= {
            cand --profile 'Revoke from this profile instead of the default'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;sandbox'= {
            cand --set 'Write this policy into the entry: none, network, off or PROFILE.json'
            cand --allow-read 'A path the server may read, absolute or ~/… (repeatable; makes a profile)'
            cand --allow-write 'A path the server may write, absolute or ~/… (repeatable; makes a profile)'
            cand --allow-host 'A host the server may reach through mcpctl''s egress proxy, every other one refused (repeatable; makes a profile)'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;login'= {
            cand --scope 'Scopes to ask for, space-separated (default: the definition''s `scope`, else what the server''s challenge or metadata names, else none)'
            cand --timeout 'Seconds allowed for the whole sign-in, browser included'
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --no-browser 'Only print the sign-in URL; do not open a browser'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;logout'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;auth'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand status 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;auth;status'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;auth;help'= {
            cand status 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;auth;help;status'= {
        }
        &'mcpctl;auth;help;help'= {
        }
        &'mcpctl;supervisor'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand run 'Run the supervisor in the foreground, logging to stderr'
            cand start 'Start the supervisor detached (does nothing if it runs)'
            cand stop 'Stop every server, then the supervisor'
            cand status 'Show the supervisor''s pid, uptime, socket, sources and servers'
            cand reload 'Re-read the definition files now (they are also watched)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;supervisor;run'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;supervisor;start'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;supervisor;stop'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;supervisor;status'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;supervisor;reload'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;supervisor;help'= {
            cand run 'Run the supervisor in the foreground, logging to stderr'
            cand start 'Start the supervisor detached (does nothing if it runs)'
            cand stop 'Stop every server, then the supervisor'
            cand status 'Show the supervisor''s pid, uptime, socket, sources and servers'
            cand reload 'Re-read the definition files now (they are also watched)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;supervisor;help;run'= {
        }
        &'mcpctl;supervisor;help;start'= {
        }
        &'mcpctl;supervisor;help;stop'= {
        }
        &'mcpctl;supervisor;help;status'= {
        }
        &'mcpctl;supervisor;help;reload'= {
        }
        &'mcpctl;supervisor;help;help'= {
        }
        &'mcpctl;completions'= {
            cand --file 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)'
            cand --color 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never'
            cand --project 'In Claude Code''s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user''s (default: the current directory, when the file has an entry for it)'
            cand --json 'Print machine-readable JSON on stdout instead of text'
            cand -q 'Print no notes or progress on stderr (warnings and errors still)'
            cand --quiet 'Print no notes or progress on stderr (warnings and errors still)'
            cand --no-spawn 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
            cand --allow-insecure-file 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'mcpctl;help'= {
            cand list 'List every server with its transport, target, whether it is enabled, and its source file'
            cand show 'Show one server''s full definition'
            cand add 'Add a server from the MCP Registry, a URL or a command, after validating it'
            cand add-json 'Add a server from its JSON entry (Claude Code''s `mcp add-json`)'
            cand check 'Connect to servers, list their tools, and report what is wrong'
            cand lock 'Pin what each server launches and what its tools claim, in a lockfile'
            cand pin 'Resolve unpinned package launches to exact versions, in place'
            cand approve 'Accept a server''s drift from the lockfile: show it, then update the lock'
            cand clients 'List the agent hosts'' MCP configuration files found here'
            cand import 'Copy servers from an agent host''s file into mcpctl''s'
            cand export 'Write servers into an agent host''s own file, in its shape'
            cand remove 'Remove servers from their definition files'
            cand enable 'Enable servers (keeps the definition, flips its state)'
            cand disable 'Disable servers (keeps the definition, flips its state)'
            cand search 'Search the official MCP Registry for servers to install'
            cand start 'Start servers under the supervisor and wait until they are ready'
            cand stop 'Stop supervised servers (TERM, grace, KILL, reap)'
            cand restart 'Stop then start servers, with new binding and catalog ids'
            cand refresh 'Re-list the tools of ready servers'
            cand status 'Show the state of supervised servers'
            cand tools 'Show a running server''s tool catalog'
            cand call 'Call a tool of a running server (or --direct, without the supervisor)'
            cand logs 'Show a supervised server''s stderr log'
            cand serve 'Serve the granted tools of the supervised servers to an agent host over MCP'
            cand grant 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)'
            cand revoke 'Take back tools granted to `mcpctl serve`'
            cand sandbox 'Print a server''s sandbox rules as its launch builds them, or set its policy'
            cand login 'Sign in to a remote server with OAuth and store its tokens'
            cand logout 'Revoke a server''s OAuth tokens and delete them here'
            cand auth 'Inspect OAuth sign-ins (`mcpctl auth status`)'
            cand supervisor 'Run, start, stop or inspect the supervisor daemon itself'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'mcpctl;help;list'= {
        }
        &'mcpctl;help;show'= {
        }
        &'mcpctl;help;add'= {
        }
        &'mcpctl;help;add-json'= {
        }
        &'mcpctl;help;check'= {
        }
        &'mcpctl;help;lock'= {
        }
        &'mcpctl;help;pin'= {
        }
        &'mcpctl;help;approve'= {
        }
        &'mcpctl;help;clients'= {
        }
        &'mcpctl;help;import'= {
        }
        &'mcpctl;help;export'= {
        }
        &'mcpctl;help;remove'= {
        }
        &'mcpctl;help;enable'= {
        }
        &'mcpctl;help;disable'= {
        }
        &'mcpctl;help;search'= {
        }
        &'mcpctl;help;start'= {
        }
        &'mcpctl;help;stop'= {
        }
        &'mcpctl;help;restart'= {
        }
        &'mcpctl;help;refresh'= {
        }
        &'mcpctl;help;status'= {
        }
        &'mcpctl;help;tools'= {
        }
        &'mcpctl;help;call'= {
        }
        &'mcpctl;help;logs'= {
        }
        &'mcpctl;help;serve'= {
        }
        &'mcpctl;help;grant'= {
        }
        &'mcpctl;help;revoke'= {
        }
        &'mcpctl;help;sandbox'= {
        }
        &'mcpctl;help;login'= {
        }
        &'mcpctl;help;logout'= {
        }
        &'mcpctl;help;auth'= {
            cand status 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
        }
        &'mcpctl;help;auth;status'= {
        }
        &'mcpctl;help;supervisor'= {
            cand run 'Run the supervisor in the foreground, logging to stderr'
            cand start 'Start the supervisor detached (does nothing if it runs)'
            cand stop 'Stop every server, then the supervisor'
            cand status 'Show the supervisor''s pid, uptime, socket, sources and servers'
            cand reload 'Re-read the definition files now (they are also watched)'
        }
        &'mcpctl;help;supervisor;run'= {
        }
        &'mcpctl;help;supervisor;start'= {
        }
        &'mcpctl;help;supervisor;stop'= {
        }
        &'mcpctl;help;supervisor;status'= {
        }
        &'mcpctl;help;supervisor;reload'= {
        }
        &'mcpctl;help;completions'= {
        }
        &'mcpctl;help;help'= {
        }
    ]
    $completions[$command]
}
