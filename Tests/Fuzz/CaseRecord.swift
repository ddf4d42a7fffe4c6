import Foundation
import Synchronization

/// The case under way, kept in memory allocated before the first case, so that a signal
/// handler (on a trap) and the watchdog thread (on a hang or too much memory) can print it
/// with write(2) alone: no allocation, no lock, nothing that is unsafe in a signal handler.
enum CaseRecord {
    nonisolated(unsafe) private static let input = UnsafeMutablePointer<UInt8>.allocate(capacity: CaseGenerator.maximumLength)
    /// The report shows this much of the input; the reproduction command makes all of it again.
    private static let shownBytes = 1024
    nonisolated(unsafe) private static let hex = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * shownBytes)
    nonisolated(unsafe) private static let digits = UnsafeMutablePointer<UInt8>.allocate(capacity: 24)
    /// `notify-fuzz: TARGET`, then the reproduction command up to its case number.
    nonisolated(unsafe) private static var name: [UInt8] = []
    nonisolated(unsafe) private static var reproduce: [UInt8] = []
    private static let length = Atomic<Int>(0)
    private static let caseNumber = Atomic<Int>(-1)
    /// When the case began (monotonic nanoseconds); 0 between cases.
    private static let startedAt = Atomic<UInt64>(0)
    /// The process's CPU time when the case began (nanoseconds).
    private static let cpuStartedAt = Atomic<UInt64>(0)
    /// A case runs over its time limit when it has used that much CPU time: a busy machine
    /// (a test pass, a build beside the fuzz) stretches the wall-clock time of a case that
    /// does no more work, and once made a 20 ms case look hung. A case that waits without
    /// working (a deadlock) is caught by the wall clock, at this many times the limit.
    static let wallClockFactor: UInt64 = 30
    private static let trapped = Atomic<Bool>(false)
    /// The handlers there before ours, by signal number.
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) private static var mainThread = pthread_self()
    static let fatalSignals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]

    /// Prepares the report for `target` and installs the handlers; call once, before any case.
    static func install(target: String, seed: UInt64, memoryLimitKiB: Int, timeLimit: Duration) {
        mainThread = pthread_self()
        // The buffers are lazy globals: made here, so that no handler allocates one (malloc
        // in a signal handler deadlocks when the trap came from inside malloc).
        _ = (input, hex, digits, previousActions)
        name = Array("notify-fuzz: \(target)".utf8)
        reproduce = Array("\nreproduce: notify-fuzz --target \(target) --seed \(seed) --case ".utf8)
        installSignalHandlers()
        limitData(toKiB: 4 * memoryLimitKiB)
        startWatchdog(memoryLimitKiB: memoryLimitKiB, timeLimit: timeLimit)
    }

    /// Records `bytes` as case `number` (its first ``CaseGenerator/maximumLength`` bytes: an
    /// input given with --input or --input-file may be longer) and starts its clock.
    static func begin(_ number: Int, _ bytes: [UInt8]) {
        let kept = min(bytes.count, CaseGenerator.maximumLength)
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { input.update(from: base, count: kept) }
        }
        length.store(kept, ordering: .releasing)
        caseNumber.store(number, ordering: .releasing)
        cpuStartedAt.store(cpuNanoseconds(), ordering: .releasing)
        startedAt.store(monotonicNanoseconds(), ordering: .releasing)
    }

    /// Stops the clock; returns the case's time in nanoseconds.
    static func end() -> UInt64 {
        let started = startedAt.exchange(0, ordering: .acquiringAndReleasing)
        return monotonicNanoseconds() - started
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The CPU time this process has used (every thread), in nanoseconds.
    static func cpuNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Peak resident memory of this process so far, in KiB.
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    // MARK: - Reporting

    /// Writes the target, `reason`, the case number, how to make it again and the input in hex.
    private static func report(_ reason: StaticString) {
        let number = caseNumber.load(ordering: .acquiring)
        let count = length.load(ordering: .acquiring)
        _ = name.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
        writeStatic(reason)
        writeStatic(" at case ")
        writeNumber(number)
        _ = reproduce.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
        writeNumber(number)
        writeStatic("\ninput (")
        writeNumber(count)
        writeStatic(" bytes")
        if count > shownBytes { writeStatic(", the first 1,024 shown") }
        writeStatic(", hex): ")
        let alphabet: StaticString = "0123456789abcdef"
        let letters = alphabet.utf8Start
        let shown = min(count, shownBytes)
        for index in 0..<shown {
            hex[2 * index] = letters[Int(input[index] >> 4)]
            hex[2 * index + 1] = letters[Int(input[index] & 0xF)]
        }
        write(2, hex, 2 * shown)
        writeStatic("\n")
    }

    private static func writeStatic(_ text: StaticString) {
        write(2, text.utf8Start, text.utf8CodeUnitCount)
    }

    private static func writeNumber(_ value: Int) {
        var rest = value.magnitude
        var index = 24
        repeat {
            index -= 1
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if value < 0 {
            index -= 1
            digits[index] = UInt8(ascii: "-")
        }
        write(2, digits + index, 24 - index)
    }

    // MARK: - Traps

    private static func installSignalHandlers() {
        // A stack overflow is a SIGSEGV with no stack left: the handler needs a stack of its own.
        let stackSize = 256 * 1024
        var alternate = stack_t(ss_sp: UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16), ss_flags: 0, ss_size: stackSize)
        sigaltstack(&alternate, nil)
        for signal in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = onFatalSignal
            action.sa_flags = Int32(SA_ONSTACK)
            var previous = sigaction()
            sigaction(signal, &action, &previous)
            (previousActions + Int(signal)).initialize(to: previous)
        }
    }

    /// Reports the case, then hands the signal to the handler that was there before (the Swift
    /// runtime's, which prints the stack) by restoring it and raising the signal again.
    private static let onFatalSignal: @convention(c) (Int32) -> Void = { signal in
        // The watchdog must not call the time the runtime takes to print the stack a hang.
        startedAt.store(0, ordering: .releasing)
        trapped.store(true, ordering: .releasing)
        report(" trapped (fatal signal)")
        sigaction(signal, previousActions + Int(signal), nil)
        raise(signal)
    }

    // MARK: - Memory and time

    /// A hard stop behind the watchdog, which samples: one huge allocation fails at once (a
    /// trap, reported as above) instead of taking the machine's memory.
    private static func limitData(toKiB kibibytes: Int) {
        var limit = rlimit(rlim_cur: rlim_t(kibibytes) * 1024, rlim_max: rlim_t(kibibytes) * 1024)
        if setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &limit) != 0 {
            FileHandle.standardError.write(Data("notify-fuzz: setrlimit(RLIMIT_DATA) failed (errno \(errno)); the watchdog alone bounds memory\n".utf8))
        }
    }

    /// SIGQUIT to the main thread, where the case runs: the Swift runtime's handler prints its
    /// stack and ends the process. Without that handler, the process just ends.
    private static func showMainThreadStack() {
        pthread_kill(mainThread, SIGQUIT)
        sleep(10)
    }

    private static func startWatchdog(memoryLimitKiB: Int, timeLimit: Duration) {
        let limit = UInt64(timeLimit.components.seconds) * 1_000_000_000 + UInt64(timeLimit.components.attoseconds / 1_000_000_000)
        let thread = Thread {
            while !trapped.load(ordering: .acquiring) {
                usleep(10_000)
                let started = startedAt.load(ordering: .acquiring)
                let cpuStarted = cpuStartedAt.load(ordering: .acquiring)
                if started != 0
                    && (cpuNanoseconds() &- cpuStarted > limit || monotonicNanoseconds() &- started > wallClockFactor * limit) {
                    report(" hung (a case ran over its time limit)")
                    showMainThreadStack()
                    _exit(3)
                }
                if peakResidentKiB() > memoryLimitKiB {
                    report(" used more memory than its limit")
                    _exit(4)
                }
            }
        }
        thread.start()
    }
}
