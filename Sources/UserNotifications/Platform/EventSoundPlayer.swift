import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Plays notification sounds that the notification server does not play (``EventSound``)
/// through the freedesktop sound theme, with libcanberra (``CanberraLibrary``) loaded at run
/// time, in the process that posted them (the app's, or the agent's when the agent posts for
/// it).
///
/// Playback never blocks the caller: each sound is handed to a serial queue of its own, where
/// libcanberra connects to the sound server (once, kept for the next sounds) and starts the
/// stream; the sound plays on while the queue moves on. The desktop's `event-sounds` setting
/// turns all of them off and its `theme-name` picks the theme (``EventSoundSettings``), read
/// for each sound. What cannot be played is logged, never thrown: no libcanberra (once, as a
/// warning), no sound server or a name the theme does not have (as an error, then at debug
/// level until a sound plays again).
final class EventSoundPlayer: Sendable {
    /// The process's player, logging through the center's logger.
    static let shared = EventSoundPlayer(library: CanberraLibrary.shared, logger: SubsystemLog.center.logger)

    /// A libcanberra context, only touched on ``queue``.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var context: Context?
        var reportedMissingLibrary = false
        /// A failure was logged as an error since the last sound that played: the next ones
        /// are logged at debug level (a session without a sound server fails every time).
        var reportedFailure = false
    }

    private let library: CanberraLibrary?
    private let logger: Logger
    private let settings: @Sendable () -> EventSoundSettings
    private let queue = DispatchQueue(label: "org.desktopnotifications.event-sound")
    private let state = Locked(State())

    /// - Parameters:
    ///   - library: libcanberra, `nil` when it is not installed.
    ///   - settings: the desktop's event-sound settings, asked for each sound.
    init(
        library: CanberraLibrary?, logger: Logger,
        settings: @escaping @Sendable () -> EventSoundSettings = { EventSoundSettings.current() }
    ) {
        self.library = library
        self.logger = logger
        self.settings = settings
    }

    deinit {
        if let library, let context = state.withLock({ $0.context }) { _ = library.contextDestroy(context.pointer) }
    }

    /// Starts playing `sound` for notification `identifier` of app `appID`, and returns at once.
    func play(_ sound: EventSound, appID: String, identifier: String) {
        queue.async { [self] in playNow(sound, appID: appID, identifier: identifier) }
    }

    /// Returns once every sound handed over before has been started (or given up); for tests.
    func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    private func playNow(_ sound: EventSound, appID: String, identifier: String) {
        let metadata: Logger.Metadata = ["identifier": "\(identifier)", "sound": "\(Self.describe(sound))"]
        guard let library else {
            let first = state.withLock { state in
                defer { state.reportedMissingLibrary = true }
                return !state.reportedMissingLibrary
            }
            logger.log(
                level: first ? .warning : .debug,
                "libcanberra (libcanberra.so.0, Debian package libcanberra0) is not installed: the sound of a notification the server does not play itself is not played",
                metadata: metadata)
            return
        }
        if case .file(let path) = sound, !Self.isRegularFile(path) {
            // libcanberra opens the file itself, and waits on a FIFO or a device for as long as
            // it takes: this queue plays every app's sounds in the agent.
            logger.error("the sound file of a notification is not a regular file: it is not played", metadata: metadata)
            return
        }
        let settings = settings()
        guard settings.isEnabled else {
            logger.debug("event sounds are turned off (org.gnome.desktop.sound event-sounds): the sound is not played", metadata: metadata)
            return
        }
        let kept = state.withLock { $0.context != nil }
        var outcome = start(sound, library: library, settings: settings, appID: appID)
        // A sound server that went away (restarted) leaves the kept context broken: once more
        // with a new one. A context opened for this sound is not tried twice.
        if kept, case .failure(let error) = outcome, error.code != CanberraLibrary.notFound, error.code != CanberraLibrary.disabled {
            var details = metadata
            details["error"] = "\(library.describe(error.code))"
            logger.debug("the sound of a notification could not be started on the kept sound server connection: trying a new one", metadata: details)
            dropContext(library)
            outcome = start(sound, library: library, settings: settings, appID: appID)
        }
        switch outcome {
        case .success:
            state.withLock { $0.reportedFailure = false }
        case .failure(let error):
            if error.code != CanberraLibrary.notFound { dropContext(library) }
            let first = state.withLock { state in
                defer { state.reportedFailure = true }
                return !state.reportedFailure
            }
            var details = metadata
            details["error"] = "\(library.describe(error.code))"
            logger.log(level: first ? .error : .debug, "the sound of a notification could not be played", metadata: details)
        }
    }

    /// Opens the context when there is none and starts `sound` on it.
    private func start(
        _ sound: EventSound, library: CanberraLibrary, settings: EventSoundSettings, appID: String
    ) -> Result<Void, CanberraError> {
        let context: OpaquePointer
        if let kept = state.withLock({ $0.context }) {
            context = kept.pointer
        } else {
            var created: OpaquePointer?
            let status = library.contextCreate(&created)
            guard status == 0, let created else { return .failure(CanberraError(code: status)) }
            let opened = library.contextOpen(created)
            guard opened == 0 else {
                _ = library.contextDestroy(created)
                return .failure(CanberraError(code: opened))
            }
            state.withLock { $0.context = Context(pointer: created) }
            context = created
        }
        var properties: OpaquePointer?
        let status = library.proplistCreate(&properties)
        guard status == 0, let properties else { return .failure(CanberraError(code: status)) }
        defer { _ = library.proplistDestroy(properties) }
        var values = ["media.role": "event", "event.description": "Notification", "application.id": appID]
        switch sound {
        case .themed(let name): values["event.id"] = name
        case .file(let path): values["media.filename"] = path
        }
        if let theme = settings.themeName { values["canberra.xdg-theme.name"] = theme }
        for (key, value) in values {
            let set = library.proplistSets(properties, key, value)
            guard set == 0 else { return .failure(CanberraError(code: set)) }
        }
        let played = library.playFull(context, 0, properties, nil, nil)
        return played == 0 ? .success(()) : .failure(CanberraError(code: played))
    }

    private func dropContext(_ library: CanberraLibrary) {
        guard let context = state.withLock({ state -> Context? in
            defer { state.context = nil }
            return state.context
        }) else { return }
        _ = library.contextDestroy(context.pointer)
    }

    /// Whether `path` names a regular file (through links): anything else is not opened.
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFREG
    }

    private static func describe(_ sound: EventSound) -> String {
        switch sound {
        case .themed(let name): "theme sound \(TerminalText.singleLine(name))"
        case .file(let path): "file \(TerminalText.singleLine(path))"
        }
    }
}

/// A libcanberra error code (`CA_ERROR_*`).
struct CanberraError: Error, Equatable {
    let code: Int32
}
