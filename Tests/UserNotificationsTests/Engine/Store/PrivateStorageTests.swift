import Foundation
@testable import UserNotifications
import Testing

/// Private folders and files. The tests run as root, so "another user's folder" is one
/// chowned to an unused uid, never a permission that root would pass anyway.
@Suite("Private storage")
struct PrivateStorageTests {
    let scratch: ScratchFolder

    init() throws {
        scratch = try ScratchFolder()
    }

    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    @Test("a missing folder is made 0700, parents too; an existing one of ours that was 0755 becomes 0700")
    func foldersAreMadePrivate() throws {
        let nested = scratch.url.appendingPathComponent("a/b")
        try PrivateStorage.prepareFolder(nested.path)
        #expect(Self.mode(nested.path) == 0o700)
        #expect(Self.mode(scratch.url.appendingPathComponent("a").path) == 0o700)
        let open = scratch.url.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect(try PrivateStorage.checkFolder(open.path))
        #expect(Self.mode(open.path) == 0o700)
        #expect(try !PrivateStorage.checkFolder(scratch.url.appendingPathComponent("none").path))
    }

    @Test("another user's folder is refused with its path and owner, and left as it was; the state file in it is not read")
    func anotherUsersFolderIsRefused() throws {
        let folder = scratch.url.appendingPathComponent("theirs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try #require(chown(folder.path, 4242, 4242) == 0)
        #expect(throws: StateStoreError.ownedByAnotherUser(path: folder.path, owner: 4242)) {
            try PrivateStorage.prepareFolder(folder.path)
        }
        #expect(throws: StateStoreError.ownedByAnotherUser(path: folder.path, owner: 4242)) {
            try StateFile<SampleState>(folder: folder, name: "pending").load()
        }
        #expect(Self.mode(folder.path) == 0o755)
        #expect(try scratch.names(in: folder).isEmpty)
    }

    @Test("a file is written 0600 and replaced whole")
    func filesArePrivate() throws {
        let file = scratch.url.appendingPathComponent("ids.json")
        try Data("old".utf8).write(to: file)
        #expect(chmod(file.path, 0o644) == 0)
        try PrivateStorage.writeFile(Data("new".utf8), to: file.path)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(Self.mode(file.path) == 0o600)
        #expect(try scratch.names() == ["ids.json"])
    }

    @Test("removing a folder removes the links in it, not their targets; a missing path is no error")
    func removalDoesNotFollowLinks() throws {
        let target = scratch.url.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data([1]).write(to: target.appendingPathComponent("keep"))
        let doomed = scratch.url.appendingPathComponent("doomed/inner")
        try FileManager.default.createDirectory(at: doomed, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: doomed.appendingPathComponent("link"), withDestinationURL: target)
        try PrivateStorage.remove(scratch.url.appendingPathComponent("doomed").path)
        #expect(try scratch.names() == ["target"])
        #expect(try scratch.names(in: target) == ["keep"])
        try PrivateStorage.remove(scratch.url.appendingPathComponent("doomed").path)
    }
}
