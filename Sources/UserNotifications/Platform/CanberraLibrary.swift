/// libcanberra (`libcanberra.so.0`, Debian package `libcanberra0`), loaded at run time to play
/// a notification's sound through the freedesktop sound theme when the notification server
/// plays none (``EventSoundPlayer``). Not linked: the package builds without its headers, and a
/// system without it only loses those sounds (said once in the log). `nil` when it is not
/// installed.
///
/// Only the functions that take no variable arguments are used: `ca_context_play_full` with a
/// property list built by `ca_proplist_sets` does what the variadic `ca_context_play` does.
/// Which sound server it plays on is libcanberra's choice (its PulseAudio backend, Debian
/// package `libcanberra-pulse`, reads `PULSE_SERVER` like any PulseAudio client).
struct CanberraLibrary: @unchecked Sendable {
    typealias ContextCreate = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
    typealias ContextRelease = @convention(c) (OpaquePointer?) -> Int32
    typealias ProplistCreate = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
    typealias ProplistSets = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
    typealias PlayFull = @convention(c) (OpaquePointer?, UInt32, OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    typealias StringError = @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// `CA_ERROR_NOTFOUND`: no such sound in the theme, or no such file.
    static let notFound: Int32 = -9
    /// `CA_ERROR_DISABLED`: sounds are turned off (`canberra.enable`).
    static let disabled: Int32 = -16

    let contextCreate: ContextCreate
    let contextOpen: ContextRelease
    let contextDestroy: ContextRelease
    let proplistCreate: ProplistCreate
    let proplistSets: ProplistSets
    let proplistDestroy: ContextRelease
    let playFull: PlayFull
    let stringError: StringError

    static let shared: CanberraLibrary? = load("libcanberra.so.0")

    /// Opens `soname` and finds its functions; `nil` when the library or one of them is missing.
    static func load(_ soname: String) -> CanberraLibrary? {
        guard let library = DynamicLibrary.open(soname),
              let contextCreate = library.function("ca_context_create", as: ContextCreate.self),
              let contextOpen = library.function("ca_context_open", as: ContextRelease.self),
              let contextDestroy = library.function("ca_context_destroy", as: ContextRelease.self),
              let proplistCreate = library.function("ca_proplist_create", as: ProplistCreate.self),
              let proplistSets = library.function("ca_proplist_sets", as: ProplistSets.self),
              let proplistDestroy = library.function("ca_proplist_destroy", as: ContextRelease.self),
              let playFull = library.function("ca_context_play_full", as: PlayFull.self),
              let stringError = library.function("ca_strerror", as: StringError.self) else { return nil }
        return CanberraLibrary(
            contextCreate: contextCreate, contextOpen: contextOpen, contextDestroy: contextDestroy,
            proplistCreate: proplistCreate, proplistSets: proplistSets, proplistDestroy: proplistDestroy,
            playFull: playFull, stringError: stringError)
    }

    /// libcanberra's text for error `code`.
    func describe(_ code: Int32) -> String {
        stringError(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
