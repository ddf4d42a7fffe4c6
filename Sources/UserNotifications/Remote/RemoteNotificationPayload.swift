import Foundation

/// An APNs-style remote notification payload (`{"aps": {...}, ...}`), read into content.
/// A Linux addition: there is no push service on Linux, but a program that receives such
/// payloads over its own channel (a WebSocket, a message queue) can show them as Apple would.
///
/// It is `@unchecked Sendable`: its content is an immutable copy, never changed after `init`.
public struct RemoteNotificationPayload: @unchecked Sendable {
    /// Why a payload cannot be read.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes are not JSON, or the JSON is not an object.
        case notAnObject(String)
        /// There is no `aps` dictionary.
        case missingAPS
        /// A key of `aps` has a value of the wrong type.
        case wrongType(key: String, expected: String)

        public var description: String {
            switch self {
            case .notAnObject(let detail): "the payload is not a JSON object: \(detail)"
            case .missingAPS: "the payload has no \"aps\" dictionary"
            case .wrongType(let key, let expected): "\"\(key)\" must be \(expected)"
            }
        }
    }

    /// The whole payload, as `userInfo` carries it (Apple keeps `aps` in it too).
    public let userInfo: [String: any Sendable]
    /// The content to show.
    public let content: UNNotificationContent
    /// `mutable-content: 1`: a service extension may change the content before it is shown.
    public let isMutable: Bool
    /// `content-available: 1` with nothing to show: a background update, not a notification.
    public let isSilent: Bool

    /// Reads a payload from JSON bytes.
    public init(json: Data) throws(Failure) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw .notAnObject(error.localizedDescription)
        }
        guard let dictionary = object as? [String: Any] else { throw .notAnObject("the top level is not an object") }
        try self.init(dictionary: dictionary)
    }

    /// Reads a payload from a decoded dictionary.
    public init(dictionary: [String: Any]) throws(Failure) {
        try self.init(dictionary: dictionary, bundle: Bundle.main)
    }

    /// Reads a payload, looking localization keys up in `bundle` (for tests).
    init(dictionary: [String: Any], bundle: any LocalizedStringSource) throws(Failure) {
        guard let aps = dictionary["aps"] as? [String: Any] else { throw .missingAPS }
        let content = UNMutableNotificationContent()
        try Self.readAlert(aps["alert"], into: content, bundle: bundle)
        if let badge = aps["badge"] {
            guard let number = badge as? NSNumber else { throw .wrongType(key: "badge", expected: "a number") }
            content.badge = number
        }
        content.sound = try Self.sound(aps["sound"])
        content.categoryIdentifier = try Self.string(aps, "category") ?? ""
        content.threadIdentifier = try Self.string(aps, "thread-id") ?? ""
        content.targetContentIdentifier = try Self.string(aps, "target-content-id")
        if let level = try Self.string(aps, "interruption-level") {
            content.interruptionLevel = switch level {
            case "passive": .passive
            case "time-sensitive": .timeSensitive
            case "critical": .critical
            default: .active
            }
        }
        if let score = aps["relevance-score"] as? NSNumber { content.relevanceScore = score.doubleValue }
        // JSON's null has no property-list form, and user info is kept as property lists
        // (the state file, the agent): nulls are left out, in dictionaries and arrays alike.
        let dictionary = Self.withoutNulls(dictionary)
        content.userInfo = dictionary
        self.content = content.copy() as! UNNotificationContent
        self.userInfo = Self.sendable(dictionary)
        isMutable = (aps["mutable-content"] as? NSNumber)?.intValue == 1
        let hasAlert = !content.title.isEmpty || !content.body.isEmpty || !content.subtitle.isEmpty
        isSilent = (aps["content-available"] as? NSNumber)?.intValue == 1 && !hasAlert && content.sound == nil && content.badge == nil
    }

    private static func readAlert(_ alert: Any?, into content: UNMutableNotificationContent, bundle: any LocalizedStringSource) throws(Failure) {
        switch alert {
        case nil:
            return
        case let text as String:
            content.body = text
        case let fields as [String: Any]:
            (content.fields.title, content.fields.localizations.title) =
                try localized(fields, text: "title", key: "title-loc-key", arguments: "title-loc-args", bundle: bundle)
            (content.fields.subtitle, content.fields.localizations.subtitle) =
                try localized(fields, text: "subtitle", key: "subtitle-loc-key", arguments: "subtitle-loc-args", bundle: bundle)
            (content.fields.body, content.fields.localizations.body) =
                try localized(fields, text: "body", key: "loc-key", arguments: "loc-args", bundle: bundle)
            if let image = try string(fields, "launch-image") { content.launchImageName = image }
        default:
            throw .wrongType(key: "alert", expected: "a string or a dictionary")
        }
    }

    /// A localized key wins over the plain text, as on Apple platforms. It is looked up in the
    /// app's bundle now, with its arguments, and again when the notification is delivered (see
    /// `NSString.localizedUserNotificationString(forKey:arguments:)`); the lookup is returned
    /// with the text.
    private static func localized(
        _ fields: [String: Any], text: String, key: String, arguments: String, bundle: any LocalizedStringSource
    ) throws(Failure) -> (String, DeferredLocalization?) {
        if let locKey = try string(fields, key) {
            let values = fields[arguments] as? [Any] ?? []
            let localization = DeferredLocalization(key: locKey, arguments: values.map { "\($0)" }, source: bundle)
            return (localization.resolve(), localization)
        }
        return (try string(fields, text) ?? "", nil)
    }

    private static func sound(_ value: Any?) throws(Failure) -> UNNotificationSound? {
        switch value {
        case nil:
            return nil
        case let name as String:
            return name == "default" ? .default : UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
        case let fields as [String: Any]:
            let name = fields["name"] as? String ?? "default"
            let critical = (fields["critical"] as? NSNumber)?.intValue == 1
            let volume = (fields["volume"] as? NSNumber)?.floatValue ?? 1
            switch (critical, name) {
            case (true, "default"): return .defaultCriticalSound(withAudioVolume: volume)
            case (true, _): return .criticalSoundNamed(UNNotificationSoundName(rawValue: name), withAudioVolume: volume)
            case (false, "default"): return .default
            case (false, _): return UNNotificationSound(named: UNNotificationSoundName(rawValue: name))
            }
        default:
            throw .wrongType(key: "sound", expected: "a string or a dictionary")
        }
    }

    private static func string(_ fields: [String: Any], _ key: String) throws(Failure) -> String? {
        guard let value = fields[key] else { return nil }
        guard let text = value as? String else { throw .wrongType(key: key, expected: "a string") }
        return text
    }

    /// `dictionary` with every JSON null removed, at any depth.
    private static func withoutNulls(_ dictionary: [String: Any]) -> [String: Any] {
        dictionary.compactMapValues(withoutNulls(value:))
    }

    private static func withoutNulls(value: Any) -> Any? {
        switch value {
        case is NSNull: nil
        case let nested as [String: Any]: withoutNulls(nested)
        case let array as [Any]: array.compactMap(withoutNulls(value:))
        default: value
        }
    }

    /// The JSON values as Sendable values (JSONSerialization yields only plist types).
    private static func sendable(_ dictionary: [String: Any]) -> [String: any Sendable] {
        dictionary.mapValues { value -> any Sendable in
            switch value {
            case let nested as [String: Any]: sendable(nested)
            case let array as [Any]: array.map { "\($0)" }
            case let text as String: text
            case let number as NSNumber: number.doubleValue
            default: "\(value)"
            }
        }
    }
}

extension UNUserNotificationCenter {
    /// Shows a remote notification payload as Apple's push service would: the request's
    /// trigger is a ``UNPushNotificationTrigger``, and a payload with the same
    /// `collapseIdentifier` (APNs's `apns-collapse-id`) updates the one shown before. A
    /// mutable payload goes through the registered service extension first. A silent payload
    /// (`content-available` only) shows nothing. A Linux addition.
    ///
    /// - Returns: the request that was added, or `nil` for a silent payload.
    @discardableResult
    public func deliverRemoteNotification(
        _ payload: RemoteNotificationPayload, collapseIdentifier: String? = nil
    ) async throws -> UNNotificationRequest? {
        guard !payload.isSilent else { return nil }
        let identifier = collapseIdentifier ?? UUID().uuidString
        var request = payload.request(identifier: identifier)
        if payload.isMutable {
            let content = await serviceExtensionContent(for: request)
            request = UNNotificationRequest(identifier: identifier, content: content, trigger: UNPushNotificationTrigger())
        }
        try await add(request)
        return request
    }
}
