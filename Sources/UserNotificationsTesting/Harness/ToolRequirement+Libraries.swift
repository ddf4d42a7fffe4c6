import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ToolRequirement {
    /// Whether a missing tool or library must fail its tests: `DESKTOPNOTIFICATIONS_REQUIRE_TOOLS=1`,
    /// as `make test` sets. Without it, tests of optional run-time libraries stand down on a
    /// machine that lacks them (see ``canRun(needingLibrary:)``).
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["DESKTOPNOTIFICATIONS_REQUIRE_TOOLS"] == "1"
    }

    /// Whether a test that needs the shared library `soname` should run: when the library can
    /// be loaded, and always when tools are required (it then fails in
    /// ``requireSharedLibrary(_:package:)``).
    public static func canRun(needingLibrary soname: String) -> Bool {
        isRequired || hasSharedLibrary(soname)
    }

    /// Whether `dlopen` finds the shared library `soname` (for example `libgdk_pixbuf-2.0.so.0`).
    public static func hasSharedLibrary(_ soname: String) -> Bool {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else { return false }
        dlclose(handle)
        return true
    }

    /// Checks that the shared library `soname` can be loaded.
    ///
    /// - Throws: ``MissingToolError`` naming `package` when it cannot.
    public static func requireSharedLibrary(_ soname: String, package: String) throws {
        guard hasSharedLibrary(soname) else {
            throw MissingToolError(tool: soname, package: package, searched: "dlopen's library path")
        }
    }

    /// Checks that a data file a library reads (a database, a schema) is installed.
    ///
    /// - Throws: ``MissingToolError`` naming `package` when `path` does not exist.
    public static func requireDataFile(_ path: String, package: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw MissingToolError(tool: path, package: package, searched: path)
        }
    }
}
