import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Folders and files that only this user may read or change: the center's state and
/// attachments, and `notify`'s remembered ids and scheduled records.
///
/// A folder is created with mode 0700 and a file with 0600. An existing folder is used only
/// when this user owns it, and is narrowed to 0700 when its mode was wider; a folder of another
/// user is refused, since its owner could read or replace whatever is kept there. Removing
/// never follows a symbolic link: a link is removed, never what it points to.
package enum PrivateStorage {
    /// The deepest nesting ``remove(_:)`` goes into; the store itself nests two levels.
    static let maximumRemovalDepth = 32

    /// Creates the folder `path`, and any missing parents, with mode 0700; or checks the folder
    /// already there, as ``checkFolder(_:)`` does.
    ///
    /// - Throws: ``StateStoreError``, ``StateStoreError/ownedByAnotherUser(path:owner:)`` for a
    ///   folder of another user.
    package static func prepareFolder(_ path: String) throws {
        if try checkFolder(path) { return }
        try StateFileSystem.createFolder(path)
        guard try checkFolder(path) else { throw StateFileSystem.failure(.createFolder, path, code: ENOENT) }
    }

    /// Checks the folder at `path`: owned by this user, and mode 0700 (narrowed when wider).
    ///
    /// - Returns: `false` when there is nothing at `path`.
    /// - Throws: ``StateStoreError/ownedByAnotherUser(path:owner:)`` for a folder of another
    ///   user; ``StateStoreError/fileSystem(operation:path:code:message:)`` for one that cannot
    ///   be opened (a file in its place, say).
    package static func checkFolder(_ path: String) throws -> Bool {
        let descriptor = StateFileSystem.retryingInterrupts { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return false }
            throw StateFileSystem.failure(.inspectFolder, path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw StateFileSystem.failure(.inspectFolder, path) }
        guard status.st_uid == geteuid() else { throw StateStoreError.ownedByAnotherUser(path: path, owner: status.st_uid) }
        if status.st_mode & 0o077 != 0 {
            guard fchmod(descriptor, 0o700) == 0 else { throw StateFileSystem.failure(.restrictFolder, path) }
        }
        return true
    }

    /// Replaces the file at `path` with `data`, mode 0600, so that a crash leaves the old
    /// content or the new one, whole (see ``StateFileWrite``). The folder must exist.
    package static func writeFile(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try StateFileWrite(
            data: data, targetPath: path, folderPath: folder,
            temporaryPath: "\(folder)/.\(url.lastPathComponent).tmp-\(UUID().uuidString)"
        ).perform()
    }

    /// Removes `path`, and everything in it when it is a folder, never following a link; a
    /// path already gone is not an error.
    ///
    /// - Throws: ``StateStoreError``; ``StateStoreError/nestedTooDeep(path:)`` for folders
    ///   nested deeper than ``maximumRemovalDepth``, where it stops.
    package static func remove(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        let parentPath = url.deletingLastPathComponent().path
        let parent = StateFileSystem.retryingInterrupts { open(parentPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard parent >= 0 else {
            if errno == ENOENT { return }
            throw StateFileSystem.failure(.remove, path)
        }
        defer { close(parent) }
        try remove(url.lastPathComponent, in: parent, path: path, depth: 0)
    }

    /// Removes the entry `name` of the open folder `folder`; `path` names it in errors.
    private static func remove(_ name: String, in folder: Int32, path: String, depth: Int) throws {
        var status = stat()
        guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw StateFileSystem.failure(.remove, path)
        }
        var flags: Int32 = 0
        if status.st_mode & S_IFMT == S_IFDIR {
            guard depth < maximumRemovalDepth else { throw StateStoreError.nestedTooDeep(path: path) }
            try removeContents(of: name, in: folder, path: path, depth: depth)
            flags = AT_REMOVEDIR
        }
        guard unlinkat(folder, name, flags) == 0 || errno == ENOENT else { throw StateFileSystem.failure(.remove, path) }
    }

    /// Removes what the folder `name` of the open folder `folder` holds.
    private static func removeContents(of name: String, in folder: Int32, path: String, depth: Int) throws {
        // O_NOFOLLOW: should a link have replaced the folder since fstatat, this fails instead
        // of emptying the link's target.
        let descriptor = StateFileSystem.retryingInterrupts { openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw StateFileSystem.failure(.remove, path) }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            throw StateFileSystem.failure(.remove, path)
        }
        defer { closedir(stream) }
        for entry in StateFileSystem.names(in: stream) {
            try remove(entry, in: dirfd(stream), path: "\(path)/\(entry)", depth: depth + 1)
        }
    }
}
