/// A wrong answer that is not a crash: a seed the parser refuses, two parsers that disagree.
struct FuzzFinding: Error, CustomStringConvertible {
    let description: String
}

/// One parser under fuzz: the valid inputs it starts from, the tokens worth inserting, and
/// how one input (bytes) reaches it.
struct FuzzTarget: Sendable {
    /// What the parser did with an input. A typed error is the right answer to bad input.
    enum Outcome {
        case accepted
        case refused
    }

    let name: String
    /// Every seed must be accepted (checked before the run), else the mutations would only
    /// ever reach the parser's first checks.
    let seeds: [[UInt8]]
    let tokens: [[UInt8]]
    /// The openers that the deep-nesting mutation repeats.
    let nesting: [[UInt8]]
    /// Feeds one input; throws a ``FuzzFinding`` for a wrong answer.
    let run: @Sendable ([UInt8]) throws(FuzzFinding) -> Outcome
    /// Makes what the cases need (a bus, a service) before the seeds and the cases run, so
    /// that no case's time pays for it; a failure ends the run as a finding.
    var prepare: @Sendable () throws(FuzzFinding) -> Void = {}
    /// Removes what the target made (its temporary folder), at the end of the run.
    var cleanUp: @Sendable () -> Void = {}

    func generator(seed: UInt64) -> CaseGenerator {
        CaseGenerator(seeds: seeds, tokens: tokens, nesting: nesting, runSeed: seed, targetName: name)
    }
}

extension Array where Element == UInt8 {
    /// The bytes split at NUL: how one input carries several words or arguments.
    var words: [String] {
        split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension Array where Element == String {
    /// The words as one input, joined by NUL (the inverse of `[UInt8].words`).
    var joinedInput: [UInt8] {
        [UInt8](joined(separator: "\0").utf8)
    }
}
