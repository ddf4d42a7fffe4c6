import Foundation
import Testing
@testable import UserNotifications

/// A process killed in the middle of a save leaves exactly what the steps done so far left: the
/// kernel closes its files and releases its locks, nothing more. These tests run the real save
/// steps up to a chosen one, then drop everything the way the kernel does, and start again.
@Suite("StateFile crash safety")
struct StateFileCrashSafetyTests {
    let scratch: ScratchFolder
    let folder: URL

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url.appendingPathComponent("com.example.App")
    }

    func stateFile() -> StateFile<SampleState> {
        StateFile(folder: folder, name: "pending")
    }

    /// Saves `value` but stops, as if killed, right after `lastStep`.
    func saveDying(_ value: SampleState, after lastStep: StateFileWrite.Step) throws {
        let file = stateFile()
        let data = try file.encode(value)
        try file.withWriterLock {
            let write = file.makeWrite(of: data)
            for step in StateFileWrite.Step.allCases {
                try write.perform(step)
                if step == lastStep { return }
            }
        }
    }

    @Test(arguments: StateFileWrite.Step.allCases)
    func aSaveKilledAfterAnyStepLeavesTheOldOrTheNewValueWhole(lastStep: StateFileWrite.Step) throws {
        try stateFile().save(.first)

        try saveDying(.second, after: lastStep)

        let renamed = StateFileWrite.Step.allCases.firstIndex(of: lastStep)!
            >= StateFileWrite.Step.allCases.firstIndex(of: .renameOverTarget)!
        #expect(try stateFile().load() == .loaded(renamed ? .second : .first))
        #expect(try scratch.names(in: folder) == ["pending.json", "pending.lock"])
    }

    @Test(arguments: StateFileWrite.Step.allCases)
    func theNextSaveAfterAKilledOneSucceeds(lastStep: StateFileWrite.Step) throws {
        try stateFile().save(.first)
        try saveDying(.second, after: lastStep)

        try stateFile().save(.first)

        #expect(try stateFile().load() == .loaded(.first))
    }

    @Test func aFirstSaveKilledBeforeTheRenameLeavesAFreshState() throws {
        try saveDying(.first, after: .syncTemporary)

        #expect(try stateFile().load() == .fresh)
        #expect(try scratch.names(in: folder) == ["pending.lock"])
    }

    @Test func aTemporaryFileLeftBetweenWriteAndRenameIsIgnoredAndRemoved() throws {
        try stateFile().save(.first)
        try saveDying(.second, after: .writeTemporary)
        let leftovers = try scratch.names(in: folder).filter { $0.hasPrefix(".pending.json.tmp-") }
        #expect(leftovers.count == 1)

        #expect(try stateFile().load() == .loaded(.first))
        #expect(try scratch.names(in: folder) == ["pending.json", "pending.lock"])
    }

    @Test func aFailedStepRemovesItsTemporaryFile() throws {
        try stateFile().save(.first)
        let blocked = stateFile().url
        try FileManager.default.removeItem(at: blocked)
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("occupied"), withIntermediateDirectories: true)

        #expect(throws: StateStoreError.self) { try stateFile().save(.second) }

        #expect(try scratch.names(in: folder) == ["pending.json", "pending.lock"])
    }
}
