/// A sound to play when a notification is delivered.
///
/// On Linux the system default sound is the sound theme's `message-new-instant`; a named sound
/// is a file path or a sound-theme name (see ``UNNotificationSoundName``). Critical sounds and
/// ringtones are kept as such on the model; the freedesktop specification has no volume hint,
/// so a critical sound's volume is kept but not sent.
///
/// **Where Linux differs**: the notification server plays the sound where it can (GNOME Shell,
/// Plasma). Where it cannot (no `sound` capability: dunst, mako, xfce4-notifyd), the process
/// that posted the notification plays it itself once the server accepted it: the app, or the
/// agent when it posts for the app. It plays through the freedesktop sound theme with
/// libcanberra, loaded at run time (without it, nothing plays and the log says so), never
/// keeping the caller waiting, and not when the desktop's event sounds are off (GSettings
/// `org.gnome.desktop.sound`). It plays on every delivery, an update in place too, as Apple
/// does. A passive request plays no sound anywhere, as on Apple platforms.
open class UNNotificationSound: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    /// What the sound is for, which decides how a platform may play it.
    enum Kind: String, Codable, Sendable {
        case alert
        case critical
        case ringtone
    }

    /// The sound file's name; `nil` means the system's default sound.
    package let name: UNNotificationSoundName?
    let kind: Kind
    /// The volume of a critical sound, from 0 to 1; `nil` means the system's choice.
    let audioVolume: Float?

    init(name: UNNotificationSoundName?, kind: Kind, audioVolume: Float? = nil) {
        self.name = name
        self.kind = kind
        self.audioVolume = audioVolume.map(Self.clampedVolume)
        super.init()
    }

    /// Creates a sound from a file name or, on Linux, a sound-theme name.
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name, kind: .alert)
    }

    /// The system's default notification sound.
    ///
    /// On Linux the theme's `message-new-instant`, except when the content has an audio
    /// attachment: then that file is played (the `sound-file` hint, with the attachment's copy in
    /// the center's store). A named sound never gives way to an attachment.
    ///
    /// Code from 2016 spells this `UNNotificationSound.default()`; that compiles too, because a
    /// sound can be called to return itself (see ``callAsFunction()``).
    open class var `default`: UNNotificationSound {
        UNNotificationSound(name: nil, kind: .alert)
    }

    /// The system's default sound for critical alerts.
    open class var defaultCritical: UNNotificationSound {
        UNNotificationSound(name: nil, kind: .critical)
    }

    /// The system's default ringtone, for call notifications.
    open class var defaultRingtone: UNNotificationSound {
        UNNotificationSound(name: nil, kind: .ringtone)
    }

    /// The default critical-alert sound at a volume from 0 to 1 (values outside are clamped).
    open class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: nil, kind: .critical, audioVolume: volume)
    }

    /// A named sound for critical alerts.
    open class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name, kind: .critical)
    }

    /// A named sound for critical alerts at a volume from 0 to 1 (values outside are clamped).
    open class func criticalSoundNamed(
        _ name: UNNotificationSoundName,
        withAudioVolume volume: Float
    ) -> UNNotificationSound {
        UNNotificationSound(name: name, kind: .critical, audioVolume: volume)
    }

    /// A named ringtone, for call notifications.
    open class func ringtoneSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name, kind: .ringtone)
    }

    /// Returns the sound itself. **Linux addition**: it lets the 2016 spelling
    /// `UNNotificationSound.default()` compile next to today's `UNNotificationSound.default`.
    public func callAsFunction() -> UNNotificationSound {
        self
    }

    // MARK: - What the desktop bridge reads

    /// Whether this is the system's default sound rather than a named one.
    var isDefault: Bool { name == nil }

    /// Whether this sound is meant for a critical alert.
    var isCritical: Bool { kind == .critical }

    /// Whether this sound is a ringtone.
    var isRingtone: Bool { kind == .ringtone }

    private static func clampedVolume(_ volume: Float) -> Float {
        volume.isNaN ? 1 : min(max(volume, 0), 1)
    }

    // MARK: - NSObject, NSCopying, NSSecureCoding

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationSound else { return false }
        return name == other.name && kind == other.kind && audioVolume == other.audioVolume
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(name)
        hasher.combine(kind)
        return hasher.finalize()
    }

    /// Sounds are immutable, so a copy is the sound itself.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    public class var supportsSecureCoding: Bool { true }

    open func encode(with coder: NSCoder) {
        coder.encodeSnapshot(NotificationSoundSnapshot(self))
    }

    public required init?(coder: NSCoder) {
        guard let snapshot = coder.decodeSnapshot(NotificationSoundSnapshot.self) else { return nil }
        name = snapshot.name.map { UNNotificationSoundName(rawValue: $0) }
        kind = snapshot.kind
        audioVolume = snapshot.audioVolume.map(Self.clampedVolume)
        super.init()
    }
}
