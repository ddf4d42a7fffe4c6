import DBus
import DesktopNotificationsSupport
import Foundation

// Version 2's icon and sound as sealed memory files: the dictionary of ``PortalPayload`` with
// those two entries replaced, and the descriptors that travel with it.
extension PortalPayload {
    /// The `AddNotification` dictionary and the descriptors its `h` values hold.
    struct Delivery {
        var entries: [(String, DBusValue)]
        /// Every descriptor in ``entries``; the caller closes each once the call returned or
        /// failed.
        var descriptors: [DBusFileDescriptor]

        /// ``entries`` as the `a{sv}` argument (a key given twice keeps its later value).
        var dictionary: [String: DBusValue] {
            Dictionary(entries) { _, later in later }
        }

        /// Closes every descriptor (each once: a closed one holds none).
        func closeDescriptors() {
            for descriptor in descriptors { descriptor.close() }
        }
    }

    /// ``entries(for:category:options:replacing:)``, and with version 2 keys the image
    /// attachment shown (the first image whose thumbnail is not hidden, as the freedesktop
    /// mapping picks it) as `icon` and the sound file as `sound`, each a sealed memory file
    /// (``PortalSealedFile``). An image with a clipping rectangle is sent as the clipped
    /// thumbnail the freedesktop mapping sends as pixels, encoded as PNG (``ClippedThumbnail``);
    /// when it cannot be decoded here, the whole file.
    ///
    /// The sound file is the named sound when its name is a readable absolute path, else, for
    /// the default sound, the first audio attachment; other sounds stay `default`, and no
    /// sound (or options without `.sound`) `silent`. A file that is too large or cannot be
    /// read leaves the version 1 value (the themed app icon, `default`) and is logged.
    func delivery(
        for request: UNNotificationRequest, category: UNNotificationCategory?, options: UNNotificationPresentationOptions,
        replacing: Bool
    ) -> Delivery {
        var delivery = Delivery(
            entries: entries(for: request, category: category, options: options, replacing: replacing), descriptors: [])
        guard features.hasVersion2Keys else { return delivery }
        let content = request.content
        if let image = NotificationBridge.shownImage(among: content.attachments),
           let file = Self.icon(of: image, identifier: request.identifier) {
            delivery.replace("icon", with: file)
        }
        if let sound = content.sound, options.contains(.sound),
           let url = Self.soundFile(sound, audio: content.attachments.first(where: \.isAudio)),
           let file = Self.sealed(url, named: "sound", limit: PortalSealedFile.maximumSoundBytes, identifier: request.identifier) {
            delivery.replace("sound", with: file)
        }
        return delivery
    }

    /// The file a sound plays, as the freedesktop mapping chooses it, or `nil` for a sound by
    /// name or the theme's default.
    static func soundFile(_ sound: UNNotificationSound, audio: UNNotificationAttachment?) -> URL? {
        guard let name = sound.name?.rawValue else { return audio?.url }
        guard name.hasPrefix("/"), FileManager.default.isReadableFile(atPath: name) else { return nil }
        return URL(fileURLWithPath: name)
    }

    /// The icon file of `image`: its clipped thumbnail as PNG when it has one, else the file.
    private static func icon(of image: UNNotificationAttachment, identifier: String) -> DBusFileDescriptor? {
        sealed(named: "icon", identifier: identifier) { () throws(PortalSealedFile.Failure) in
            try image.iconBytes(limit: PortalSealedFile.maximumIconBytes)
        }
    }

    private static func sealed(_ url: URL, named name: String, limit: Int, identifier: String) -> DBusFileDescriptor? {
        sealed(named: name, identifier: identifier) { () throws(PortalSealedFile.Failure) in try PortalSealedFile.read(url, limit: limit) }
    }

    /// A sealed memory file of the bytes `bytes` gives; `nil`, logged, when they or the file
    /// cannot be had.
    private static func sealed(
        named name: String, identifier: String, bytes: () throws(PortalSealedFile.Failure) -> [UInt8]
    ) -> DBusFileDescriptor? {
        do throws(PortalSealedFile.Failure) {
            return try PortalSealedFile.make(named: "desktopnotifications-" + name, bytes: try bytes())
        } catch {
            SubsystemLog.center.logger.warning(
                "a notification's \(name) was not sent as a file; the portal gets what version 1 gets",
                metadata: ["identifier": "\(identifier)", "error": "\(error)"])
            return nil
        }
    }
}

extension PortalPayload.Delivery {
    /// Puts `descriptor` in as `key`'s value (replacing the one there, or appended).
    mutating func replace(_ key: String, with descriptor: DBusFileDescriptor) {
        descriptors.append(descriptor)
        let value = PortalSealedFile.value(descriptor)
        if let index = entries.firstIndex(where: { $0.0 == key }) {
            entries[index].1 = value
        } else {
            entries.append((key, value))
        }
    }
}
