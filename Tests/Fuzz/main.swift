// Random and mutated inputs into the parsers that read outside input: payloads, localized
// formats, hints, command lines, D-Bus messages, state files and desktop entries. See
// `notify-fuzz --help`.
//
// The options are read by swift-argument-parser: the harness depends on it through NotifyCLI,
// and `make man` (swift package generate-manual) asks every such executable for its help.
import ArgumentParser
import Foundation

struct Settings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify-fuzz",
        abstract: "Fuzz the parsers of outside input: no trap, no case over 1 s of CPU time, bounded memory.",
        discussion: """
            Without --target, each target runs in a child process of its own (a trap ends that \
            child alone, and each peak memory is the target's own) and one row per target is \
            printed, then "fuzz: N passed, N failed". A case fails on a trap (the signal handler \
            prints the input), on running over 1 s of CPU time (or 30 s of wall-clock time, for a \
            case that waits) or on a peak resident memory over the limit \
            (the watchdog prints the input and the stack), or on a wrong answer (a refused seed, \
            two command-line parsers that disagree). Every case's input follows from the seed, \
            the target and the case number: --case makes one case again and runs it alone.
            """)

    @Option(help: "Run one target in this process: payload, format, hint, arguments, agent-wait-arguments, wire, state, desktop-entry, agent-payload, gnome-action-target, activatable-entry, app-files-exec, geoclue, portal-target, web-push, push-request, unifiedpush-call, push-record or agent-call.")
    var target: String?

    @Option(help: "Cases per target.")
    var cases = 100_000

    @Option(help: "The seed that every case's input follows from.")
    var seed: UInt64 = 1

    /// 512 MiB: every target peaks far below it on valid input.
    @Option(name: .customLong("memory-limit-mib"), help: "The most peak resident memory a target may reach, in MiB.")
    var memoryLimitMiB = 512

    @Option(name: .customLong("case"), help: "Make case C of --target again, show it and run it alone.")
    var singleCase: Int?

    @Option(name: .customLong("input"), help: "Run these bytes (hex) through --target.")
    var inputHex: String?

    @Option(name: .customLong("input-file"), help: "Run this file's bytes through --target.")
    var inputFile: String?

    func run() throws {
        guard let name = target else {
            throw ExitCode(ParentRun(targets: targets.map(\.name), settings: self).run())
        }
        guard let chosen = targets.first(where: { $0.name == name }) else {
            throw ValidationError("no target \(name); they are \(targets.map(\.name).joined(separator: ", "))")
        }
        throw ExitCode(TargetRun(target: chosen, settings: self, input: try input()).run())
    }

    private func input() throws -> [UInt8]? {
        if let inputFile {
            guard let contents = FileManager.default.contents(atPath: inputFile) else { throw ValidationError("cannot read \(inputFile)") }
            return Array(contents)
        }
        return try inputHex.map(Self.bytes(hex:))
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { throw ValidationError("--input takes an even number of hex digits") }
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                throw ValidationError("--input: not hex at offset \(index)")
            }
            return byte
        }
    }
}

let targets: [FuzzTarget] = [
    .payload, .format, .hint, .arguments, .agentWaitArguments, .wire, .stateFile(), .desktopEntry, .agentPayload(), .gnomeActionTarget(), .activatableEntry,
    .appFilesExec,
    .geoClueLocation,
    .portalTarget,
    .webPush(), .pushRequest, .unifiedPushCall, .pushRecord,
    .agentCall(),
    .typedCalls,
    .received,
]

Settings.main()
