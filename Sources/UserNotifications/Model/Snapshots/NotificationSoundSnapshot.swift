/// The stored form of a ``UNNotificationSound``.
struct NotificationSoundSnapshot: Codable, Hashable, Sendable {
    var name: String?
    var kind: UNNotificationSound.Kind
    var audioVolume: Float?

    init(_ sound: UNNotificationSound) {
        name = sound.name?.rawValue
        kind = sound.kind
        audioVolume = sound.audioVolume
    }

    func makeSound() -> UNNotificationSound {
        let soundName = name.map { UNNotificationSoundName(rawValue: $0) }
        return UNNotificationSound(name: soundName, kind: kind, audioVolume: audioVolume)
    }
}
