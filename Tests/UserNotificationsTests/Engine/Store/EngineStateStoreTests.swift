import Foundation
import Testing
@testable import UserNotifications

/// The one state store of both engine families (``EngineStateStore``): nothing is written
/// before a read was taken in, a second read is not taken in over the first, and a save's
/// length, which spaces the next saves, counts from the moment the save was started.
@Suite("Engine state store")
struct EngineStateStoreTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("engine-state-store-\(UUID().uuidString)", isDirectory: true)
    }

    @Test("nothing is written before a read is taken in; a read taken in once is not taken in again")
    func readBeforeWrite() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = EngineStateStore(stateDirectory: .success(folder))
        var snapshots = 0
        store.write {
            snapshots += 1
            return EngineState()
        }
        #expect(snapshots == 0 && !store.hasRead)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("notifications.json").path))

        var adopted = 0
        #expect(store.restore { _ in adopted += 1 } != nil)
        #expect(store.take(.success(EngineState())) { _ in adopted += 1 } == nil)
        #expect(adopted == 1 && store.hasRead && store.restore { _ in adopted += 1 } == nil)

        var state = EngineState()
        state.authorizationStatus = 2
        store.write { state }
        let reader = EngineStateStore(stateDirectory: .success(folder))
        #expect(reader.restore { $0.authorizationStatus } == .some(2))
        #expect(store.problem == nil)
    }

    @Test("a save's length counts from its start, so a slow start spaces the next save further")
    func lengthFromStart() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = EngineStateStore(stateDirectory: .success(folder))
        _ = store.restore { _ in }
        store.writeStarted()
        // The wait for a thread and for the turn, as an agent's save has it.
        try await Task.sleep(for: .milliseconds(100))
        store.write { EngineState() }
        // A change at once waits at least four times the 100 ms the save took from its start.
        guard case .writeAfter(let spacing) = store.change() else {
            Issue.record("a change right after a save must wait")
            return
        }
        #expect(spacing >= .milliseconds(400))
    }

    @Test("without a state folder nothing is saved and nothing waits")
    func noFolder() {
        let store = EngineStateStore(stateDirectory: nil)
        #expect(store.change() == .waiting && !store.writeWaiting && store.read() == nil && store.problem == nil)
    }
}
