// notify-fuzz [--target NAME] [--cases N] [--seed S] [--memory-limit-mib M] [--case C | --input HEX | --input-file PATH]
//
// Random and mutated inputs into the parsers that read outside input: payloads, localized
// formats, hints, command lines, D-Bus messages and state files. Without --target it runs
// each target in a child process of its own (a trap ends that child alone, and each peak
// memory is the target's own) and prints one row per target, then `fuzz: N passed, N failed`.
//
// A case fails on a trap (the signal handler prints the input), on running over 1 s or on a
// peak resident memory over the limit (the watchdog prints the input), or on a wrong answer
// (a refused seed, two command-line parsers that disagree). Every case's input follows from
// the seed, the target and the case number: `--case C` makes case C again and runs it alone,
// `--input HEX` and `--input-file PATH` run given bytes.
import Foundation

struct Settings {
    var target: String?
    var cases = 100_000
    var seed: UInt64 = 1
    /// 512 MiB: the heaviest target (the state file, with Foundation's JSON) peaks far below.
    var memoryLimitMiB = 512
    var singleCase: Int?
    var input: [UInt8]?

    static let usage = """
        usage: notify-fuzz [--target NAME] [--cases N] [--seed S] [--memory-limit-mib M] [--case C | --input HEX | --input-file PATH]
        """

    init(_ arguments: [String]) throws(FuzzFinding) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw FuzzFinding(description: "\(flag) needs a value\n\(Self.usage)") }
            switch flag {
            case "--target": target = value
            case "--cases": cases = try Self.number(value, flag)
            case "--seed": seed = UInt64(try Self.number(value, flag))
            case "--memory-limit-mib": memoryLimitMiB = try Self.number(value, flag)
            case "--case": singleCase = try Self.number(value, flag)
            case "--input": input = try Self.bytes(hex: value)
            case "--input-file":
                guard let contents = FileManager.default.contents(atPath: value) else { throw FuzzFinding(description: "cannot read \(value)") }
                input = Array(contents)
            default: throw FuzzFinding(description: "unknown option \(flag)\n\(Self.usage)")
            }
        }
    }

    private static func number(_ text: String, _ flag: String) throws(FuzzFinding) -> Int {
        guard let number = Int(text), number >= 0 else { throw FuzzFinding(description: "\(flag) takes a whole number, not \(text)") }
        return number
    }

    private static func bytes(hex: String) throws(FuzzFinding) -> [UInt8] {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { throw FuzzFinding(description: "--input takes an even number of hex digits") }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                throw FuzzFinding(description: "--input: not hex at offset \(index)")
            }
            bytes.append(byte)
        }
        return bytes
    }
}

let targets: [FuzzTarget] = [.payload, .format, .hint, .arguments, .wire, .stateFile()]

do {
    let settings = try Settings(Array(CommandLine.arguments.dropFirst()))
    if let name = settings.target {
        guard let target = targets.first(where: { $0.name == name }) else {
            throw FuzzFinding(description: "no target \(name); they are \(targets.map(\.name).joined(separator: ", "))")
        }
        exit(TargetRun(target: target, settings: settings).run())
    }
    exit(ParentRun(targets: targets.map(\.name), settings: settings).run())
} catch {
    FileHandle.standardError.write(Data("notify-fuzz: \(error)\n".utf8))
    exit(2)
}
