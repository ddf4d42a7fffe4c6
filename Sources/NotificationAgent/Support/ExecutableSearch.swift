#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Finds a program by name in the folders of a `PATH`, as `execvp` would.
enum ExecutableSearch {
    /// The first regular, executable file named `program` in the absolute folders of
    /// `environment`'s `PATH` (`/usr/local/bin:/usr/bin:/bin` when it has none), or `nil`.
    static func find(_ program: String, in environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(program)"
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}
