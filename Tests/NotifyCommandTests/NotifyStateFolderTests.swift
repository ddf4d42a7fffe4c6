import Foundation
import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// End-to-end tests of where `notify` keeps state: the app id that names a state folder, two
/// runs of one app at once, and the owner and mode of its folders and files. The tests run as
/// root, so nothing here relies on a permission being refused: a folder "of another user" is
/// one chowned to an unused uid.
@Suite("notify state folders")
struct NotifyStateFolderTests {
    /// A bus, a fake server, and a scratch folder holding the state and runtime folders.
    struct Setup {
        let bus: TestBus
        let server: FakeNotificationServer
        let scratch: URL
        var environment: [String: String]

        init() async throws {
            bus = try await TestBus()
            server = try await FakeNotificationServer.start(on: bus.bus, personality: .dunst)
            scratch = try NotifyCommandTests.scratchFolder()
            environment = bus.environment
            environment["XDG_STATE_HOME"] = state.path
            environment["XDG_RUNTIME_DIR"] = scratch.appendingPathComponent("runtime").path
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("runtime"), withIntermediateDirectories: true)
        }

        var state: URL { scratch.appendingPathComponent("state/home") }

        func start(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(executable: NotifyCommandTests.executable(), arguments: arguments, environment: environment)
        }

        func run(_ arguments: [String]) async throws -> CommandResult {
            try await start(arguments).result(timeout: .seconds(30))
        }

        /// A push payload file whose title is `title`.
        func payload(_ title: String) throws -> URL {
            let file = scratch.appendingPathComponent("\(title).json")
            try Data(#"{"aps": {"alert": {"title": "\#(title)", "body": "body"}}}"#.utf8).write(to: file)
            return file
        }

        func stop() async {
            await server.stop()
            await bus.stop()
            try? FileManager.default.removeItem(at: scratch)
        }
    }

    /// The permission bits of `path` (its own, not a link's target).
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// A uid that no account uses, for a folder "of another user".
    static let strangerUID: uid_t = 4242

    // MARK: - Application ids

    @Test("notify push -a with an id that is not a folder name (.., ., empty, a/b) exits 1 naming it and writes nothing",
          arguments: ["..", ".", "", "a/b", "../escape"])
    func pushRefusesPathLikeAppID(_ id: String) async throws {
        let setup = try await Setup()
        defer { Task { await setup.stop() } }
        let result = try await setup.run(["push", "-a", id, try setup.payload("Escape").path])
        #expect(result.status == .exited(1), "\(result.standardError)")
        #expect(result.standardError.contains("\"\(id)\""), "\(result.standardError)")
        #expect(setup.server.notifications.isEmpty)
        let written = (try? FileManager.default.subpathsOfDirectory(atPath: setup.scratch.appendingPathComponent("state").path)) ?? []
        #expect(written.isEmpty, "written: \(written)")
    }

    // MARK: - Two runs of one app

    @Test("notify push -a X run four times at once: the state keeps all four notifications")
    func concurrentPushesKeepEachOthersState() async throws {
        let setup = try await Setup()
        defer { Task { await setup.stop() } }
        let names = (1...4).map { "push-\($0)" }
        let runs = try names.map { try setup.start(["push", "-a", "org.example.Twice", "--collapse-id", $0, try setup.payload($0).path]) }
        for run in runs {
            let result = try await run.result(timeout: .seconds(30))
            #expect(result.status == .exited(0), "\(result.standardError)")
        }
        #expect(setup.server.notifications.count == 4)
        let saved = try Data(contentsOf: setup.state.appendingPathComponent("org.example.Twice/notifications.json"))
        let text = String(decoding: saved, as: UTF8.self)
        for name in names {
            #expect(text.contains("\"\(name)\""), "\(name) was lost: \(text)")
        }
    }

    // MARK: - Owner and mode

    @Test("notify --id keeps ids.json 0600 in a folder made 0700, also when the folder was 0755")
    func identifierFileIsPrivate() async throws {
        let setup = try await Setup()
        defer { Task { await setup.stop() } }
        let folder = setup.state.appendingPathComponent("notify")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let result = try await setup.run(["--id", "build", "Building"])
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(folder.appendingPathComponent("ids.json").path) == 0o600)
    }

    @Test("notify refuses its folder (remembered ids, scheduled records) when another user owns it, naming both, and leaves it as it was",
          arguments: [("state/home/notify", ["--id", "build", "Building"]), ("runtime/notify/scheduled", ["--in", "2", "Later"])])
    func folderOfAnotherUser(_ relativePath: String, _ arguments: [String]) async throws {
        let setup = try await Setup()
        defer { Task { await setup.stop() } }
        let folder = setup.scratch.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try #require(chown(folder.path, Self.strangerUID, Self.strangerUID) == 0)
        let result = try await setup.run(arguments)
        #expect(result.status == .exited(1), "\(result.standardError)")
        #expect(result.standardError.contains(folder.path), "\(result.standardError)")
        #expect(result.standardError.contains("\(Self.strangerUID)"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(Self.mode(folder.path) == 0o755)
    }

    @Test("notify push makes the app's state folder 0700 and its state file 0600")
    func pushStateIsPrivate() async throws {
        let setup = try await Setup()
        defer { Task { await setup.stop() } }
        let folder = setup.state.appendingPathComponent("org.example.Private")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let result = try await setup.run(["push", "-a", "org.example.Private", try setup.payload("Private").path])
        #expect(result.status == .exited(0), "\(result.standardError)")
        #expect(Self.mode(folder.path) == 0o700)
        #expect(Self.mode(folder.appendingPathComponent("notifications.json").path) == 0o600)
    }
}
