#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A shared library opened at run time with `dlopen`, for the GLib-family libraries the
/// package uses when they are installed (GIO, gdk-pixbuf) without linking them: the package
/// builds without their headers, and a system without them only loses what they add.
///
/// Libraries are opened once and never closed; their functions stay valid for the process.
struct DynamicLibrary: @unchecked Sendable {
    // The handle is only read (dlsym is thread-safe), never closed.
    private let handle: UnsafeMutableRawPointer

    /// Opens the library by its soname (`libgio-2.0.so.0`), or `nil` when it is not installed.
    static func open(_ soname: String) -> DynamicLibrary? {
        dlopen(soname, RTLD_NOW | RTLD_LOCAL).map(DynamicLibrary.init(handle:))
    }

    private init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    /// The C function `name` as the `@convention(c)` type `type`, or `nil` when the library
    /// has no such symbol (an older version).
    func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
}
