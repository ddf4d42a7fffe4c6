import Foundation
import Testing
@testable import UserNotifications

@Suite("StateFile locking")
struct StateFileLockingTests {
    let scratch: ScratchFolder
    let folder: URL

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url.appendingPathComponent("com.example.App")
    }

    func stateFile() -> StateFile<SampleState> {
        StateFile(folder: folder, name: "pending")
    }

    // MARK: - One writer at a time

    @Test func twoThreadsSavingAtOnceBothSucceedAndTheFileHoldsOneWholeValue() throws {
        let ones = SampleState(pending: Self.manyDates(1), counter: 1)
        let twos = SampleState(pending: Self.manyDates(2), counter: 2)

        for _ in 0..<10 {
            let errors = FiringLog<String>()
            let folder = folder
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                do {
                    try StateFile<SampleState>(folder: folder, name: "pending").save(thread == 0 ? ones : twos)
                } catch {
                    errors.record("\(error)", Date())
                }
            }

            #expect(errors.keys.isEmpty)
            let loaded = try stateFile().load()
            #expect(loaded == .loaded(ones) || loaded == .loaded(twos))
        }
        #expect(try scratch.names(in: folder) == ["pending.json", "pending.lock"])
    }

    @Test func threadsSharingOneClaimedFileTakeTurns() throws {
        let file = stateFile()
        try file.claim()

        let errors = FiringLog<String>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<5 {
                do {
                    try file.save(SampleState(pending: Self.manyDates(thread), counter: round))
                } catch {
                    errors.record("\(error)", Date())
                }
            }
        }

        #expect(errors.keys.isEmpty)
        guard case let .loaded(value) = try file.load() else {
            Issue.record("expected the last saved value")
            return
        }
        #expect(value.counter == 4)
        #expect(Set(value.pending.values).count == 1)
    }

    // MARK: - Claiming for the process's life

    @Test func aClaimedFileCanStillBeSavedAndLoadedByItsHolder() throws {
        let file = stateFile()
        try file.claim()
        try file.claim()

        try file.save(.first)

        #expect(try file.load() == .loaded(.first))
    }

    @Test func aSecondClaimFailsAtOnceUntilTheFirstHolderGoesAway() throws {
        var first: StateFile<SampleState>? = stateFile()
        try first?.claim()

        let error = try #require(throws: StateStoreError.self) { try stateFile().claim() }
        #expect(error == .claimedElsewhere(lockPath: stateFile().lockURL.path))

        first = nil
        // A child process that another test is starting may hold a copy of the descriptor
        // for the instant between its fork and its exec; the lock is free right after.
        let deadline = ContinuousClock.now + .seconds(2)
        while true {
            do {
                try stateFile().claim()
                break
            } catch StateStoreError.claimedElsewhere where ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    @Test
    func anotherProcessCannotLockAClaimedFile() throws {
        let file = stateFile()
        try file.claim()

        #expect(try Self.runFlock(["-n", file.lockURL.path, "true"]) != 0)
    }

    @Test
    func aLockHolderKilledWithSigkillReleasesTheLock() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // One process holds the lock: the shell opens the file, flock(1) locks that open file,
        // and the shell becomes `sleep`, keeping it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", #"exec 9>"$0" && flock 9 && echo locked && exec sleep 60"#, stateFile().lockURL.path]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        #expect(Self.readLine(from: output.fileHandleForReading) == "locked")

        #expect(throws: StateStoreError.claimedElsewhere(lockPath: stateFile().lockURL.path)) {
            try stateFile().claim()
        }

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        #expect(holder.terminationReason == .uncaughtSignal)
        try stateFile().claim()
        try stateFile().save(.second)
    }

    // MARK: - Helpers

    static func manyDates(_ value: Int) -> [String: Date] {
        Dictionary(uniqueKeysWithValues: (0..<5_000).map { ("request-\($0)", Date(timeIntervalSince1970: Double(value))) })
    }

    static func readLine(from handle: FileHandle) -> String? {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty { return nil }
            if byte == Data("\n".utf8) { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    static func runFlock(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
