import DesktopNotificationsSupport
import Foundation
import Testing
@testable import UserNotifications

/// A value shaped like the center's state: dates must come back exactly.
struct SampleState: Codable, Sendable, Equatable {
    var pending: [String: Date]
    var counter: Int

    static let first = SampleState(
        pending: ["a": Date(timeIntervalSince1970: 1_700_000_000.123_456), "b": .distantFuture],
        counter: 1
    )
    static let second = SampleState(pending: ["c": Date(timeIntervalSince1970: 1_800_000_000.5)], counter: 2)
}

@Suite("StateFile")
struct StateFileTests {
    let scratch: ScratchFolder
    let folder: URL

    init() throws {
        scratch = try ScratchFolder()
        folder = scratch.url.appendingPathComponent("state/com.example.App")
    }

    func stateFile(formatVersion: Int = 1) -> StateFile<SampleState> {
        StateFile(folder: folder, name: "pending", formatVersion: formatVersion)
    }

    // MARK: - Round trip

    @Test("an update that knows the stamp of its own last save is not handed the file again; another writer's save is read")
    func updateSkipsTheReadWhileTheFileIsItsOwn() throws {
        let file = stateFile()
        let seen = Locked<[SampleState?]>([])
        func update(_ stamp: StateFileStamp?, to value: SampleState) throws -> StateFileStamp? {
            try file.update(unchangedSince: stamp) { current in
                if case .loaded(let stored)? = current { seen.withLock { $0.append(stored) } } else { seen.withLock { $0.append(nil) } }
                return value
            }
        }
        // The first update reads (there is no file: nothing loaded).
        let first = try #require(try update(nil, to: .first))
        // Its own stamp: not read again.
        let second = try #require(try update(first, to: .second))
        #expect(second != first)
        #expect(seen.withLock { $0 } == [nil, nil])
        // Another writer (another StateFile object, standing for another process) saves.
        try stateFile().save(.first)
        let third = try update(second, to: .second)
        #expect(seen.withLock { $0 } == [nil, nil, .first])
        #expect(third != nil && third != second)
        #expect(try stateFile().load() == .loaded(.second))
        // A stale stamp never skips the read.
        _ = try update(first, to: .first)
        #expect(seen.withLock { $0 }.last == .second)
    }

    @Test func aSavedValueLoadsBackExactly() throws {
        try stateFile().save(.first)

        #expect(try stateFile().load() == .loaded(.first))
    }

    @Test func savingAgainReplacesTheValue() throws {
        try stateFile().save(.first)
        try stateFile().save(.second)

        #expect(try stateFile().load() == .loaded(.second))
        #expect(try scratch.names(in: folder) == ["pending.json", "pending.lock"])
    }

    @Test func noFolderMeansAFreshStartAndCreatesNothing() throws {
        #expect(try stateFile().load() == .fresh)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aFolderWithoutTheFileMeansAFreshStart() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        #expect(try stateFile().load() == .fresh)
    }

    @Test func theFileWrapsTheValueWithItsFormatVersionAndSaveTimeInSortedKeys() throws {
        try stateFile(formatVersion: 3).save(.second)

        let text = try String(contentsOf: stateFile().url, encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["formatVersion"] as? Int == 3)
        let savedAt = try #require(object["savedAt"] as? String)
        #expect(savedAt.hasSuffix("Z"))
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(savedAt).timeIntervalSinceNow > -60)
        let keys = ["\"formatVersion\"", "\"savedAt\"", "\"value\""].map { text.range(of: $0)!.lowerBound }
        #expect(keys == keys.sorted())
    }

    @Test func theFolderAndFilesAreReadableByTheUserOnly() throws {
        try stateFile().save(.first)

        let attributes = { (url: URL) in
            try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        }
        #expect(try attributes(folder) == 0o700)
        #expect(try attributes(stateFile().url) == 0o600)
        #expect(try attributes(stateFile().lockURL) == 0o600)
    }

    // MARK: - Files that are not trusted

    @Test func aTruncatedFileIsSetAsideAndReported() throws {
        try stateFile().save(.first)
        let saved = try Data(contentsOf: stateFile().url)
        let truncated = saved.prefix(saved.count / 2)
        try truncated.write(to: stateFile().url)

        let result = try stateFile().load()

        guard case let .setAside(reason, movedTo) = result, case .undecodable = reason else {
            Issue.record("expected an undecodable file to be set aside, got \(result)")
            return
        }
        #expect(try Data(contentsOf: movedTo) == truncated)
        #expect(movedTo.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(isSetAsideName(movedTo.lastPathComponent))
        #expect(!FileManager.default.fileExists(atPath: stateFile().url.path))
    }

    @Test func afterASetAsideTheStateStartsFreshAndSavesAgain() throws {
        try Data("{\"formatVersion\":1,\"sav".utf8).write(to: createdFolder().appendingPathComponent("pending.json"))
        _ = try stateFile().load()

        #expect(try stateFile().load() == .fresh)
        try stateFile().save(.second)
        #expect(try stateFile().load() == .loaded(.second))
    }

    @Test func anEmptyFileIsSetAside() throws {
        try Data().write(to: createdFolder().appendingPathComponent("pending.json"))

        let result = try stateFile().load()

        guard case let .setAside(reason, movedTo) = result else {
            Issue.record("expected the empty file to be set aside, got \(result)")
            return
        }
        #expect(reason == .empty)
        #expect(try Data(contentsOf: movedTo).isEmpty)
    }

    @Test func aFileFromANewerFormatIsSetAsideUnread() throws {
        let future = #"{"formatVersion":99,"savedAt":"2030-01-01T00:00:00.000Z","value":{"renamed":true}}"#
        try Data(future.utf8).write(to: createdFolder().appendingPathComponent("pending.json"))

        let result = try stateFile(formatVersion: 2).load()

        guard case let .setAside(reason, movedTo) = result else {
            Issue.record("expected the newer file to be set aside, got \(result)")
            return
        }
        #expect(reason == .newerFormatVersion(found: 99, understood: 2))
        #expect(try String(contentsOf: movedTo, encoding: .utf8) == future)
    }

    @Test func aFileOfAnOlderFormatVersionStillLoads() throws {
        try stateFile(formatVersion: 1).save(.first)

        #expect(try stateFile(formatVersion: 2).load() == .loaded(.first))
    }

    @Test func aValueOfTheWrongShapeIsSetAside() throws {
        let wrongShape = #"{"formatVersion":1,"savedAt":"2030-01-01T00:00:00.000Z","value":[1,2,3]}"#
        try Data(wrongShape.utf8).write(to: createdFolder().appendingPathComponent("pending.json"))

        let result = try stateFile().load()

        guard case .setAside(.undecodable, _) = result else {
            Issue.record("expected the file to be set aside, got \(result)")
            return
        }
    }

    @Test("a file nested deeper than JSON is read (513 arrays trap JSONDecoder) is set aside, not a trap")
    func aFileNestedTooDeepIsSetAside() throws {
        let deep = #"{"formatVersion":1,"savedAt":"2030-01-01T00:00:00.000Z","value":{"pending":"# + String(repeating: "[", count: 513)
        try Data(deep.utf8).write(to: createdFolder().appendingPathComponent("pending.json"))

        let result = try stateFile().load()

        guard case .setAside(.undecodable(let detail), _) = result else {
            Issue.record("expected the file to be set aside, got \(result)")
            return
        }
        #expect(detail.contains("nested more than \(OutsideJSON.maximumDepth) deep"))
    }

    @Test func twoSetAsidesInOneInstantKeepBothFiles() throws {
        for _ in 0..<3 {
            try Data().write(to: createdFolder().appendingPathComponent("pending.json"))
            _ = try stateFile().load()
        }

        let setAside = try scratch.names(in: folder).filter(isSetAsideName)
        #expect(setAside.count == 3)
    }

    // MARK: - Errors

    @Test func aFailedSystemCallNamesTheFileAndTheErrno() throws {
        let blocker = scratch.url.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let file = StateFile<SampleState>(folder: blocker, name: "pending")

        let error = try #require(throws: StateStoreError.self) { try file.save(.first) }

        guard case let .fileSystem(operation, path, code, message) = error else {
            Issue.record("expected a file-system error, got \(error)")
            return
        }
        // The folder is checked (owner, mode) before anything in it is opened.
        #expect(operation == .inspectFolder)
        #expect(path == blocker.path)
        #expect(code == ENOTDIR)
        #expect(message == "Not a directory")
        #expect(error.localizedDescription.contains(blocker.path))
        #expect(error.localizedDescription.contains("Not a directory"))
    }

    // MARK: - Helpers

    func createdFolder() throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// `pending.corrupt-<yyyyMMdd>T<HHmmss.SSS>Z[-n].json`
func isSetAsideName(_ name: String) -> Bool {
    name.wholeMatch(of: /pending\.corrupt-\d{8}T\d{6}\.\d{3}Z(-\d+)?\.json/) != nil
}
