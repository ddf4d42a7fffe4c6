#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension XDGDataDirectories {
    /// Finds and parses `<appID>.desktop`: the first file of that name in
    /// ``applicationDirectories`` wins, and when it says `Hidden=true` the app counts as not
    /// installed (the spec's way for a user to delete a system-wide entry).
    ///
    /// The spec's rule that maps an id with dashes to subfolders (`foo-bar.desktop` as
    /// `applications/foo/bar.desktop`) is not followed: app ids of reverse-DNS form do not
    /// use it, and it can make two files claim one id.
    ///
    /// - Throws: ``ApplicationLaunchError/invalidApplicationID(_:)``,
    ///   ``ApplicationLaunchError/noDesktopEntry(appID:searched:)``,
    ///   ``ApplicationLaunchError/unreadableDesktopEntry(path:reason:)`` and
    ///   ``ApplicationLaunchError/invalidDesktopEntry(path:_:)``.
    package func desktopEntry(for appID: String) throws(ApplicationLaunchError) -> LocatedDesktopEntry {
        guard Self.isFileName(appID) else { throw .invalidApplicationID(appID) }
        let folders = applicationDirectories
        for folder in folders {
            let path = "\(folder)/\(appID).desktop"
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(path, limit: KeyFile.maximumFileSize)
            } catch .system(errno: let code) where code == ENOENT || code == ENOTDIR {
                continue
            } catch .system(errno: let code) {
                throw .unreadableDesktopEntry(path: path, reason: BoundedFile.describe(errno: code))
            } catch {
                throw .unreadableDesktopEntry(path: path, reason: "not a regular file")
            }
            let entry: DesktopEntry
            do {
                entry = try DesktopEntry(parsing: bytes)
            } catch {
                throw .invalidDesktopEntry(path: path, error)
            }
            guard !entry.isHidden else { break }
            return LocatedDesktopEntry(path: path, entry: entry)
        }
        throw .noDesktopEntry(appID: appID, searched: folders)
    }

    /// Whether `appID` can be a file name's stem: not empty, no `/`, no NUL, not starting
    /// with `.`, at most 255 bytes.
    private static func isFileName(_ appID: String) -> Bool {
        !appID.isEmpty && appID.utf8.count <= 255 && !appID.hasPrefix(".") && !appID.contains("/") && !appID.contains("\0")
    }
}
