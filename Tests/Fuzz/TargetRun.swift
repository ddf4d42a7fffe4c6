import Foundation

/// One target's run, in this process: the seeds checked, then the cases, then one `result`
/// line on standard output for the parent (findings and reports go to standard error).
struct TargetRun {
    let target: FuzzTarget
    let settings: Settings
    /// Bytes to run alone instead of the generated cases.
    let input: [UInt8]?
    static let timeLimit: Duration = .seconds(1)
    /// Findings past this many are counted, not printed.
    static let printedFindings = 10

    func run() -> Int32 {
        CaseRecord.install(
            target: target.name, seed: settings.seed, memoryLimitKiB: settings.memoryLimitMiB * 1024, timeLimit: Self.timeLimit)
        defer { target.cleanUp() }
        do {
            try target.prepare()
        } catch {
            FileHandle.standardError.write(Data("notify-fuzz: \(target.name): \(error.description)\n".utf8))
            return 1
        }
        if let input { return runAlone(input, number: 0) }
        let generator = target.generator(seed: settings.seed)
        if let number = settings.singleCase { return runAlone(generator.input(forCase: number), number: number) }
        guard checkSeeds() else { return 1 }

        var accepted = 0
        var findings = 0
        var slowest: UInt64 = 0
        let start = CaseRecord.monotonicNanoseconds()
        for number in 0..<settings.cases {
            let input = generator.input(forCase: number)
            CaseRecord.begin(number, input)
            do {
                if try target.run(input) == .accepted { accepted += 1 }
            } catch {
                findings += 1
                if findings <= Self.printedFindings { report(error, number: number) }
            }
            slowest = max(slowest, CaseRecord.end())
        }
        let seconds = Double(CaseRecord.monotonicNanoseconds() - start) / 1e9
        print("result \(target.name) \(settings.cases) \(accepted) \(seconds) \(CaseRecord.peakResidentKiB()) \(slowest) \(findings)")
        return findings == 0 ? 0 : 1
    }

    /// Every seed must be accepted: a corpus the parser refuses fuzzes only its first checks.
    private func checkSeeds() -> Bool {
        var valid = true
        for (index, seed) in target.seeds.enumerated() {
            CaseRecord.begin(-1 - index, seed)
            let outcome = Result { () throws(FuzzFinding) in try target.run(seed) }
            _ = CaseRecord.end()
            if case .success(.accepted) = outcome { continue }
            valid = false
            FileHandle.standardError.write(Data("notify-fuzz: \(target.name): seed \(index) is not accepted (\(outcome)): \(Self.escaped(seed))\n".utf8))
        }
        return valid
    }

    /// One input, shown first (escaped and in hex), then run.
    private func runAlone(_ input: [UInt8], number: Int) -> Int32 {
        FileHandle.standardError.write(Data("notify-fuzz: \(target.name) case \(number), \(input.count) bytes: \(Self.escaped(input))\nhex: \(Self.hex(input))\n".utf8))
        CaseRecord.begin(number, input)
        let outcome = Result { () throws(FuzzFinding) in try target.run(input) }
        let nanoseconds = CaseRecord.end()
        print("\(outcome) in \(Double(nanoseconds) / 1e6) ms, peak RSS \(CaseRecord.peakResidentKiB()) KiB")
        if case .failure = outcome { return 1 }
        return 0
    }

    private func report(_ finding: FuzzFinding, number: Int) {
        FileHandle.standardError.write(Data("""
            notify-fuzz: \(target.name) case \(number): \(finding.description)
            reproduce: notify-fuzz --target \(target.name) --seed \(settings.seed) --case \(number)

            """.utf8))
    }

    /// The input as text a terminal shows safely: Swift's escapes for quotes, backslashes and
    /// control characters, `\u{FFFD}` for bytes that are not UTF-8; cut after 2,000 characters.
    static func escaped(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let shown = text.count > 2000 ? String(text.prefix(2000)) + "… (\(text.count) characters)" : text
        return shown.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
