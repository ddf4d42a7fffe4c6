import ArgumentParser
import Foundation
import NotifyCLI

// Swift's CommandLine.arguments repairs invalid UTF-8 silently (and libdbus would abort on
// it), so the raw bytes are checked first, as notify-send's later versions do.
for index in 1..<Int(CommandLine.argc) {
    guard let argument = CommandLine.unsafeArgv[index] else { continue }
    if String(validatingCString: argument) == nil {
        Terminal.error("Invalid UTF-8 provided for parameter: argument \(index)\n")
        exit(1)
    }
}

if CommandLine.argc - 1 > NotifyCommand.maximumArguments {
    Terminal.error("notify: too many arguments (\(CommandLine.argc - 1)); at most \(NotifyCommand.maximumArguments).\n")
    exit(1)
}

/// Runs an async command (opening the existential, so that its async `run` is the one called).
func runAsynchronously<Command: AsyncParsableCommand>(_ command: inout Command) async throws {
    try await command.run()
}

let arguments = Array(CommandLine.arguments.dropFirst())
// The agent's waiter runs before anything starts the concurrency runtime, which would wake it
// every second (see AgentWaiter); it returns only when it does not start the agent.
if let waiting = AgentWaitArguments.parse(arguments) {
    exit(AgentWaiter.run(waiting))
}
// Below here notify runs on the main queue, started by dispatchMain(): the open-file limit is
// checked and libdispatch's main-queue descriptor opened first (see DescriptorFloor).
DescriptorFloor.reserve()
Task { @MainActor in
    // The common command lines skip swift-argument-parser's start-up (see QuickArguments); the
    // subcommands' types are looked up only after that, since their metadata is costly too.
    if let options = QuickArguments.parse(arguments) {
        exit(await NotifyCommand.run(options))
    }
    // The subcommands are dispatched by their first word here: swift-argument-parser would read
    // a word after options as the summary, since the root command takes positional arguments.
    let subcommand = arguments.first.flatMap(NotifySubcommand.init(rawValue:))
    // `notify help [SUBCOMMAND]`, which the completion scripts and the manual list (the parser
    // adds it to every command tree), prints the same help as --help.
    if arguments.first == NotifySubcommand.helpWord {
        switch (arguments.count, arguments.dropFirst().first.flatMap(NotifySubcommand.init(rawValue:))) {
        case (1, _):
            Terminal.out(NotifyCommand.helpMessage() + "\n")
        case (2, let named?):
            Terminal.out(named.command.helpMessage() + "\n")
        default:
            let names = NotifySubcommand.allCases.map(\.rawValue).sorted().joined(separator: ", ")
            Terminal.error("notify help: no subcommand \"\(arguments.dropFirst().joined(separator: " "))\"; they are \(names).\n")
            exit(1)
        }
        exit(0)
    }
    let chosen: any ParsableCommand.Type = subcommand?.command ?? NotifyCommand.self
    do {
        var command = try subcommand == nil ? chosen.parseAsRoot(arguments) : chosen.parseAsRoot(Array(arguments.dropFirst()))
        if var asynchronous = command as? any AsyncParsableCommand {
            try await runAsynchronously(&asynchronous)
        } else {
            try command.run()
        }
    } catch {
        // notify-send exits 1 on every usage error; swift-argument-parser would use 64.
        if chosen.exitCode(for: error) == .validationFailure {
            Terminal.error(chosen.fullMessage(for: error) + "\n")
            exit(1)
        }
        chosen.exit(withError: error)
    }
    exit(0)
}
dispatchMain()
