import Foundation
import Testing
@testable import UserNotifications

/// How an engine's save meets the app's state file (``EngineState/write(_:to:since:unchangedSince:)``).
@Suite("State saves: merged with another process's changes only when the file has some")
struct EngineStateWriteTests {
    @Test("a file that holds the engine's baseline is replaced by the engine's state as it is; one another process changed is merged")
    func mergedOnlyOverOthersChanges() throws {
        let scratch = try ScratchFolder()
        let store = EngineState.file(in: scratch.url.appendingPathComponent("com.example.App"))
        // Newest identifier first: not the identifier order a merge writes.
        let entries = try EngineStateJSONWriterTests.pending(4, seed: 21).sorted { $0.request.identifier > $1.request.identifier }
        try #require(Set(entries.map(\.request.identifier)).count == 4)
        var baseline = EngineState()
        baseline.pending = [entries[2]]
        try store.save(baseline)

        // The first save after the engine read the file (no stamp): nothing of anyone else's.
        var ours = EngineState()
        ours.pending = [entries[0], entries[1], entries[2]]
        let stamp = try EngineState.write(ours, to: store, since: baseline, unchangedSince: nil)
        #expect(stamp != nil)
        #expect(EngineState.state(from: try store.load()).pending == ours.pending)

        // Another process of the app adds a request; the engine then removes one of its own.
        var theirs = ours
        theirs.pending.append(entries[3])
        try store.save(theirs)
        var next = ours
        next.pending.removeAll { $0 == entries[1] }
        let merged = try EngineState.write(next, to: store, since: ours, unchangedSince: stamp)
        #expect(merged == nil)
        #expect(EngineState.state(from: try store.load()).pending == [entries[0], entries[2], entries[3]].sorted { $0.request.identifier < $1.request.identifier })
    }
}
