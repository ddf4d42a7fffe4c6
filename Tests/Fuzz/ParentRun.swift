import Foundation

/// Runs every target in a child process of its own and prints the table: a trap ends one
/// child, not the run, and each child's peak memory is its target's alone.
struct ParentRun {
    let targets: [String]
    let settings: Settings

    func run() -> Int32 {
        print("notify-fuzz: \(settings.cases) cases per target, seed \(settings.seed), limits 1 s of CPU time per case and \(settings.memoryLimitMiB) MiB")
        print(Self.row(["target", "cases", "accepted", "seconds", "peak RSS", "slowest case", "result"]))
        var failed = 0
        for name in targets {
            let (status, output) = runChild(name)
            let fields = output.split(separator: "\n").last { $0.hasPrefix("result ") }?.split(separator: " ").map(String.init) ?? []
            let passed = status == 0 && fields.count == 8
            if !passed { failed += 1 }
            print(fields.count == 8 ? Self.row(figures(fields) + [passed ? "ok" : "FAILED"]) : Self.row([name, "-", "-", "-", "-", "-", "FAILED (\(status))"]))
        }
        print("fuzz: \(targets.count - failed) passed, \(failed) failed")
        return failed == 0 ? 0 : 1
    }

    /// The child's exit status (128 + the signal when a signal ended it) and its standard output.
    private func runChild(_ name: String) -> (Int32, String) {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--target", name, "--cases", String(settings.cases), "--seed", String(settings.seed),
                           "--memory-limit-mib", String(settings.memoryLimitMiB)]
        // The stack of a trap in short: the runtime's whole report of a stack overflow (tens of
        // thousands of frames, every thread, the registers) would bury the input.
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil {
            environment["SWIFT_BACKTRACE"] = "limit=40,top=10,threads=crashed,registers=none,images=none"
        }
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        do {
            try child.run()
        } catch {
            FileHandle.standardError.write(Data("notify-fuzz: cannot start the \(name) child: \(error)\n".utf8))
            return (-1, "")
        }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let status = child.terminationReason == .uncaughtSignal ? 128 + child.terminationStatus : child.terminationStatus
        return (status, String(decoding: bytes, as: UTF8.self))
    }

    /// `result NAME CASES ACCEPTED SECONDS PEAK_KIB SLOWEST_NS FINDINGS` as table cells.
    private func figures(_ fields: [String]) -> [String] {
        let accepted = (Double(fields[3]) ?? 0) / max(Double(fields[2]) ?? 1, 1) * 100
        return [
            fields[1], fields[2], String(format: "%.1f%%", accepted), String(format: "%.1f", Double(fields[4]) ?? 0),
            String(format: "%.1f MiB", (Double(fields[5]) ?? 0) / 1024), String(format: "%.2f ms", (Double(fields[6]) ?? 0) / 1e6),
        ]
    }

    private static func row(_ cells: [String]) -> String {
        let widths = [16, 8, 9, 8, 10, 13]
        return cells.enumerated().map { index, cell in
            index < widths.count ? cell.padding(toLength: max(widths[index], cell.count), withPad: " ", startingAt: 0) : cell
        }.joined(separator: " ")
    }
}
