# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_mcpctl_global_optspecs
    string join \n file= json q/quiet color= no-spawn allow-insecure-file project= h/help V/version
end

function __fish_mcpctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_mcpctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_mcpctl_using_subcommand
    set -l cmd (__fish_mcpctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c mcpctl -n "__fish_mcpctl_needs_command" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_needs_command" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_needs_command" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_needs_command" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "list" -d 'List every server with its transport, target, whether it is enabled, and its source file'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "ls" -d 'List every server with its transport, target, whether it is enabled, and its source file'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "show" -d 'Show one server\'s full definition'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "get" -d 'Show one server\'s full definition'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "add" -d 'Add a server from the MCP Registry, a URL or a command, after validating it'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "add-json" -d 'Add a server from its JSON entry (Claude Code\'s `mcp add-json`)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "check" -d 'Connect to servers, list their tools, and report what is wrong'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "lock" -d 'Pin what each server launches and what its tools claim, in a lockfile'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "pin" -d 'Resolve unpinned package launches to exact versions, in place'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "approve" -d 'Accept a server\'s drift from the lockfile: show it, then update the lock'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "clients" -d 'List the agent hosts\' MCP configuration files found here'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "import" -d 'Copy servers from an agent host\'s file into mcpctl\'s'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "export" -d 'Write servers into an agent host\'s own file, in its shape'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "remove" -d 'Remove servers from their definition files'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "rm" -d 'Remove servers from their definition files'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "enable" -d 'Enable servers (keeps the definition, flips its state)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "disable" -d 'Disable servers (keeps the definition, flips its state)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "search" -d 'Search the official MCP Registry for servers to install'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "start" -d 'Start servers under the supervisor and wait until they are ready'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "stop" -d 'Stop supervised servers (TERM, grace, KILL, reap)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "restart" -d 'Stop then start servers, with new binding and catalog ids'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "refresh" -d 'Re-list the tools of ready servers'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "status" -d 'Show the state of supervised servers'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "tools" -d 'Show a running server\'s tool catalog'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "call" -d 'Call a tool of a running server (or --direct, without the supervisor)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "logs" -d 'Show a supervised server\'s stderr log'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "serve" -d 'Serve the granted tools of the supervised servers to an agent host over MCP'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "grant" -d 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "revoke" -d 'Take back tools granted to `mcpctl serve`'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "sandbox" -d 'Print a server\'s sandbox rules as its launch builds them, or set its policy'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "login" -d 'Sign in to a remote server with OAuth and store its tokens'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "logout" -d 'Revoke a server\'s OAuth tokens and delete them here'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "auth" -d 'Inspect OAuth sign-ins (`mcpctl auth status`)'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "supervisor" -d 'Run, start, stop or inspect the supervisor daemon itself'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c mcpctl -n "__fish_mcpctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l show-secrets -d 'Show literal env and header values instead of <redacted> (JSON only)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand list" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l show-secrets -d 'Show literal env and header values instead of <redacted> (JSON only)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand ls" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l show-secrets -d 'Show literal env and header values instead of <redacted>'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand show" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l show-secrets -d 'Show literal env and header values instead of <redacted>'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand get" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l package -d 'Registry: install this package kind (npm, pypi, oci), optionally with its transport (npm:stdio, npm:streamable-http)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l remote -d 'Registry: install the hosted endpoint (optionally of this transport)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l arg -d 'Registry: a package argument or URL variable, as NAME=value (repeatable)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l registry -d 'Registry base URL (used only when adding by registry name)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l url -d 'Remote server endpoint (https, or http to localhost). With --command, a local HTTP server: mcpctl launches the command, then connects here' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s t -l transport -d 'Transport: stdio for a command; for a URL, streamable-http (alias http) or sse (default: found by connecting, as the MCP spec says: Streamable HTTP, else legacy SSE; the one that answered is saved)' -r -f -a "stdio\t'A local process over stdin/stdout (the default with a command)'
streamable-http\t'Streamable HTTP (the current MCP transport; the default with a URL)'
sse\t'Legacy HTTP+SSE'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s H -l header -d 'Request header for a URL, as \'Name: value\' (repeatable)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l command -d 'Program to launch for a stdio server (on PATH, or a path)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l args -d 'Arguments for --command, comma-separated (or put them after --)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s e -l env -d 'Environment variable for the child, as NAME=value (repeatable)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l cwd -d 'Working directory for the child process' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l name -d 'Server name (default: derived from the package or host)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l label -d 'Human-readable label' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l restart -d 'Restart it on failure when supervised' -r -f -a "no\t''
on-failure\t''"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l connect-timeout -d 'Seconds allowed for connecting and listing tools (default 30)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l protocol -d 'The MCP protocol version to speak, instead of offering 2025-11-25 and falling back to the stateless 2026-07-28' -r -f -a "2025-11-25\t''
2026-07-28\t''"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l auth -d 'Sign in with OAuth: saves the entry without a connection check; then run `mcpctl login NAME`' -r -f -a "oauth\t'OAuth 2.1 (sign in with `mcpctl login NAME`)'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l grant -d 'OAuth grant (default: authorization-code)' -r -f -a "authorization-code\t'A person signs in in a browser (the default)'
client-credentials\t'A machine client trades its secret or key for a token (CI)'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l client-id -d 'A client id registered with the authorization server beforehand' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l client-secret -d 'That client\'s secret, as a \'${VAR}\' reference (never a literal)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l token-endpoint-auth -d 'Token endpoint authentication (default: what the server advertises)' -r -f -a "basic\t'client_secret_basic'
post\t'client_secret_post'
none\t'A public client'
private-key-jwt\t'private_key_jwt, with --client-key'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l client-key -d 'A PEM private key for private-key-jwt, as a \'${VAR}\' reference (ES256 or RS256, from the key)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l oauth-scope -d 'OAuth scopes to ask for, space-separated (default: what the server names). (-s/--scope is Claude Code\'s file scope.)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l client-metadata-url -d 'This client\'s metadata document URL (https), its client id where the server supports client ID metadata documents' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l sandbox -d 'How a local server is contained: none (no network), network (files contained, outbound open: the default for a command), off (unconfined), or a ToolHive permission-profile JSON file' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-read -d 'A path the server may read, absolute or ~/… (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-write -d 'A path the server may write, absolute or ~/… (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-host -d 'A host the server may reach through mcpctl\'s egress proxy, every other one refused (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l to -d 'File to write (default: the first definition file)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s s -l scope -d 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)' -r -f -a "local\t'The file `add` writes without a scope: `--to`, else the first definition file (Claude Code\'s default scope too)'
user\t'The per-user mcpctl file (`~/.config/mcpctl/servers.json`)'
project\t'`.mcp.json` in the current directory, shared with the project'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l as-remote -d 'Registry: store a package that serves HTTP as a remote URL instead of a process for the supervisor to start'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-deprecated -d 'Registry: install a version its publisher deprecated'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l trust-runtime-args -d 'Registry: write launcher options and settings the publisher gave that change what is fetched or widen what runs (--registry, another package, --privileged, a host path), instead of refusing them'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l store-secret -d 'Registry: write secret values literally instead of ${VAR} references'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l refresh -d 'Registry: ask the registry again instead of using cached answers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l disabled -d 'Add it disabled'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l autostart -d 'Start it when the supervisor starts'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l pin -d 'Resolve an unpinned or ranged npm/PyPI package to the exact version its registry serves now, and write that (see `mcpctl pin --help`)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-http -d 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l force -d 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l require-pin -d 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l no-check -d 'Do not connect to the server before saving'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l dry-run -d 'Validate and print what would be written, but write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l show-secrets -d 'Show literal env and header values in the output'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l to -d 'File to write (default: the first definition file)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -s s -l scope -d 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)' -r -f -a "local\t'The file `add` writes without a scope: `--to`, else the first definition file (Claude Code\'s default scope too)'
user\t'The per-user mcpctl file (`~/.config/mcpctl/servers.json`)'
project\t'`.mcp.json` in the current directory, shared with the project'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l allow-http -d 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l force -d 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l require-pin -d 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l no-check -d 'Do not connect to the server before saving'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l dry-run -d 'Validate and print what would be written, but write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l show-secrets -d 'Show literal env and header values in the output'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand add-json" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -s j -l jobs -d 'How many servers to check at once (default: all, at most 32)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l timeout -d 'Budget per server in seconds, overriding each connect_timeout' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l tools -d 'List each server\'s tool names'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l strict -d 'Treat lint warnings as failures'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l locked -d 'Also compare each server with its lockfile (`mcpctl lock`); any drift, or a server not in the lock, fails with exit 4'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand check" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -s j -l jobs -d 'How many servers to connect to at once (default: all, at most 32)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l timeout -d 'Budget per server in seconds, overriding each connect_timeout' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l check -d 'Compare with the lockfile instead of writing it; drift exits 4'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand lock" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l all -d 'Pin every server whose package launch is not pinned yet'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l dry-run -d 'Resolve and print what would change, but write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand pin" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l timeout -d 'Budget in seconds, overriding the server\'s connect_timeout' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l dry-run -d 'Show the difference; write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand approve" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand clients" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l from -d 'The client, or the path of its file' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l to -d 'File to write (default: the first definition file)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -s s -l scope -d 'Which file to write, as Claude Code names it: local (the default: --to, else the first definition file), user (the per-user mcpctl file), project (.mcp.json here)' -r -f -a "local\t'The file `add` writes without a scope: `--to`, else the first definition file (Claude Code\'s default scope too)'
user\t'The per-user mcpctl file (`~/.config/mcpctl/servers.json`)'
project\t'`.mcp.json` in the current directory, shared with the project'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l replace -d 'Overwrite entries of the same name that differ'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l allow-http -d 'Accept plain http:// to a public host (private, link-local, single-label and .internal/.local hosts need no flag)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l force -d 'Replace an existing server of that name; accept a launcher that is not installed here; drop comments an edit cannot keep'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l require-pin -d 'Treat unpinned package versions as errors (MCPCTL_REQUIRE_PIN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l no-check -d 'Do not connect to the server before saving'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l dry-run -d 'Validate and print what would be written, but write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l show-secrets -d 'Show literal env and header values in the output'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand import" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l to -d 'The client, or the path of its file' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l replace -d 'Overwrite entries of the same name that differ'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l check -d 'Connect to each server before writing it, as `add` does'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l dry-run -d 'Print what would be written, write nothing'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l show-secrets -d 'Show literal env and header values in the output'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand export" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -s y -l yes -d 'Do not ask for confirmation on a terminal'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l force -d 'Drop comments that an edit cannot keep'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand remove" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -s y -l yes -d 'Do not ask for confirmation on a terminal'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l force -d 'Drop comments that an edit cannot keep'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand rm" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand enable" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand disable" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l limit -d 'Show at most N results' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l registry -d 'Registry base URL' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l all -d 'Follow every page and show all results'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l include-deprecated -d 'Also show deprecated and deleted entries'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l refresh -d 'Ask the registry again instead of using cached answers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand search" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l all -d 'Every server (enabled ones for `start`, running ones otherwise)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand start" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l all -d 'Every server (enabled ones for `start`, running ones otherwise)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand stop" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l all -d 'Every server (enabled ones for `start`, running ones otherwise)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand restart" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l all -d 'Every server (enabled ones for `start`, running ones otherwise)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand refresh" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l all -d 'Every server, as a table (the same as no name)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand status" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand tools" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l args -d 'The arguments as one JSON object' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l arg -d 'One argument, KEY=VALUE; VALUE is parsed as JSON when it can be, else taken as a string (repeatable)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l catalog-id -d 'Refuse the call unless this is still the server\'s catalog id' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l binding-id -d 'Refuse the call unless this is still the server\'s binding id' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l timeout -d 'Seconds to wait for the answer (default 60)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l output-dir -d 'Write images and audio here' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l answers -d 'Answer the server\'s questions (elicitation) with these values, by field name: a JSON object, or @FILE holding one' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l progress -d 'How to show the server\'s progress on stderr: a bar on a terminal (auto), JSON lines (json), or nothing (none). Never on stdout' -r -f -a "auto\t'A bar on stderr when it is a terminal, else nothing'
json\t'One JSON object per notification on stderr'
none\t'Nothing'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l direct -d 'Connect directly, without the supervisor (spawns and ends the server)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l no-validate -d 'Send the arguments even if the schema cannot be compiled or they do not match'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l accept-defaults -d 'Accept a question whose every required field has a default, with the defaults, instead of declining it (no terminal needed)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l open -d 'Open a URL the server asks the user to visit with $BROWSER (it is always printed; mcpctl never fetches it)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand call" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -s n -l lines -d 'How many lines from the end' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -s f -l follow -d 'Keep printing new lines as they arrive (until Ctrl-C)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logs" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l http -d 'Serve Streamable HTTP at ADDR (default 127.0.0.1:8765), endpoint /mcp' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l print-config -d 'Print the entry an agent host needs to launch `serve --stdio` (with these --file, --profile, --separator and --no-start), and exit' -r -f -a "claude-code\t'Claude Code (`.mcp.json` or `claude mcp add-json`)'
vscode\t'VS Code (`.vscode/mcp.json`)'
cursor\t'Cursor (`~/.cursor/mcp.json`)'
codex\t'Codex (`~/.codex/config.toml`)'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l write-config -d 'Write that entry into the agent host\'s own file (its project file here when it has one, else its user file; as `mcpctl export --to CLIENT` writes), keeping the rest of the file, and exit' -r -f -a "claude-code\t'Claude Code (`.mcp.json` or `claude mcp add-json`)'
vscode\t'VS Code (`.vscode/mcp.json`)'
cursor\t'Cursor (`~/.cursor/mcp.json`)'
codex\t'Codex (`~/.codex/config.toml`)'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l profile -d 'Serve this profile\'s grants instead of the default ones' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l separator -d 'Put this between server and tool in the names agents see' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l timeout -d 'Seconds a call may take (default 60)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l stdio -d 'Speak MCP over stdin and stdout (for agent hosts that launch a command)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l allow-remote -d 'Allow --http to bind a non-loopback address (no TLS: use a proxy)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l print-token -d 'Print the HTTP bearer token (creating it if there is none) and exit'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l rotate-token -d 'Replace the HTTP bearer token with a new one, print it and exit'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l replace -d 'With --write-config: replace an entry of that name that differs'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l start -d 'Start every granted server that is not running before serving (by default they start in the background, and agents hear of their tools)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l no-start -d 'Start no server: serve only those already running'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l audit-args -d 'Record argument values in the audit log too (they may hold secrets)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand serve" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l profile -d 'Grant to this profile (`serve --profile NAME`) instead of the default' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l separator -d 'The separator `serve` will put between server and tool (checked against the MCP tool-name rules)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l all-current -d 'Grant every tool the server lists now (never tools that appear later)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand grant" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l profile -d 'Revoke from this profile instead of the default' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand revoke" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l set -d 'Write this policy into the entry: none, network, off or PROFILE.json' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l allow-read -d 'A path the server may read, absolute or ~/… (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l allow-write -d 'A path the server may write, absolute or ~/… (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l allow-host -d 'A host the server may reach through mcpctl\'s egress proxy, every other one refused (repeatable; makes a profile)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand sandbox" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l scope -d 'Scopes to ask for, space-separated (default: the definition\'s `scope`, else what the server\'s challenge or metadata names, else none)' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l timeout -d 'Seconds allowed for the whole sign-in, browser included' -r
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l no-browser -d 'Only print the sign-in URL; do not open a browser'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand login" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand logout" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "status" -d 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and not __fish_seen_subcommand_from status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "run" -d 'Run the supervisor in the foreground, logging to stderr'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "start" -d 'Start the supervisor detached (does nothing if it runs)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "stop" -d 'Stop every server, then the supervisor'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "status" -d 'Show the supervisor\'s pid, uptime, socket, sources and servers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "reload" -d 'Re-read the definition files now (they are also watched)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and not __fish_seen_subcommand_from run start stop status reload help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from run" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from start" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from stop" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from reload" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "run" -d 'Run the supervisor in the foreground, logging to stderr'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "start" -d 'Start the supervisor detached (does nothing if it runs)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "stop" -d 'Stop every server, then the supervisor'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show the supervisor\'s pid, uptime, socket, sources and servers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "reload" -d 'Re-read the definition files now (they are also watched)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand supervisor; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l file -d 'Definition file to read and edit (repeatable; default: MCPCTL_FILE or ~/.config/mcpctl/servers.json)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l color -d 'Colour output: auto (a terminal, unless NO_COLOR is set; CLICOLOR_FORCE=1 forces it), always or never' -r -f -a "auto\t'Colour a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces it'
always\t'Always colour, even into a pipe or file'
never\t'Never colour'"
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l project -d 'In Claude Code\'s `~/.claude.json`, read and edit the servers of this project (`projects.<PATH>.mcpServers`) instead of the user\'s (default: the current directory, when the file has an entry for it)' -r -F
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l json -d 'Print machine-readable JSON on stdout instead of text'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -s q -l quiet -d 'Print no notes or progress on stderr (warnings and errors still)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l no-spawn -d 'Never start the supervisor implicitly (MCPCTL_NO_SPAWN takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -l allow-insecure-file -d 'Launch from a definition file even when another user could change it (group- or world-writable, or owned by someone else), for this run (MCPCTL_ALLOW_INSECURE_FILE takes 1/0, true/false, yes/no or on/off)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand completions" -s V -l version -d 'Print version'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "list" -d 'List every server with its transport, target, whether it is enabled, and its source file'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "show" -d 'Show one server\'s full definition'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "add" -d 'Add a server from the MCP Registry, a URL or a command, after validating it'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "add-json" -d 'Add a server from its JSON entry (Claude Code\'s `mcp add-json`)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "check" -d 'Connect to servers, list their tools, and report what is wrong'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "lock" -d 'Pin what each server launches and what its tools claim, in a lockfile'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "pin" -d 'Resolve unpinned package launches to exact versions, in place'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "approve" -d 'Accept a server\'s drift from the lockfile: show it, then update the lock'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "clients" -d 'List the agent hosts\' MCP configuration files found here'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "import" -d 'Copy servers from an agent host\'s file into mcpctl\'s'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "export" -d 'Write servers into an agent host\'s own file, in its shape'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "remove" -d 'Remove servers from their definition files'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "enable" -d 'Enable servers (keeps the definition, flips its state)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "disable" -d 'Disable servers (keeps the definition, flips its state)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "search" -d 'Search the official MCP Registry for servers to install'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "start" -d 'Start servers under the supervisor and wait until they are ready'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "stop" -d 'Stop supervised servers (TERM, grace, KILL, reap)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "restart" -d 'Stop then start servers, with new binding and catalog ids'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "refresh" -d 'Re-list the tools of ready servers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "status" -d 'Show the state of supervised servers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "tools" -d 'Show a running server\'s tool catalog'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "call" -d 'Call a tool of a running server (or --direct, without the supervisor)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "logs" -d 'Show a supervised server\'s stderr log'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "serve" -d 'Serve the granted tools of the supervised servers to an agent host over MCP'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "grant" -d 'Expose tools of a server to `mcpctl serve` (nothing is exposed until granted)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "revoke" -d 'Take back tools granted to `mcpctl serve`'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "sandbox" -d 'Print a server\'s sandbox rules as its launch builds them, or set its policy'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "login" -d 'Sign in to a remote server with OAuth and store its tokens'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "logout" -d 'Revoke a server\'s OAuth tokens and delete them here'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "auth" -d 'Inspect OAuth sign-ins (`mcpctl auth status`)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "supervisor" -d 'Run, start, stop or inspect the supervisor daemon itself'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and not __fish_seen_subcommand_from list show add add-json check lock pin approve clients import export remove enable disable search start stop restart refresh status tools call logs serve grant revoke sandbox login logout auth supervisor completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Show, per OAuth server, whether it is signed in, the issuer, the scopes and when the token expires'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from supervisor" -f -a "run" -d 'Run the supervisor in the foreground, logging to stderr'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from supervisor" -f -a "start" -d 'Start the supervisor detached (does nothing if it runs)'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from supervisor" -f -a "stop" -d 'Stop every server, then the supervisor'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from supervisor" -f -a "status" -d 'Show the supervisor\'s pid, uptime, socket, sources and servers'
complete -c mcpctl -n "__fish_mcpctl_using_subcommand help; and __fish_seen_subcommand_from supervisor" -f -a "reload" -d 'Re-read the definition files now (they are also watched)'
