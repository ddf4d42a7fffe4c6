import DBus
import Foundation

// A request as the agent's interface carries it: an `a{sv}` of typed fields (see
// `dbus/org.desktopnotifications.Agent1.xml`), read and written here by hand, field by field:
// no JSON and no `Codable` on the way, so neither side pays for a text parser or for
// `Codable`'s generic containers.
//
// request:  identifier s (required), content a{sv}, trigger a{sv}
// content:  title, subtitle, body, categoryIdentifier, threadIdentifier, launchImageName,
//           targetContentIdentifier, filterCriteria, summaryArgument s; badge, summaryArgumentCount x;
//           interruptionLevel u (1, active, when left out); relevanceScore, progress d;
//           sound a{sv}; attachments aa{sv}; userInfo a{sv}; localizations a{sv}
// trigger:  kind s (push, timeInterval, calendar, location); repeats b; interval d;
//           anchorDate d; dateComponents a{sv}; region a{sv}

extension NotificationRequestSnapshot {
    static let recordKeys: Set<String> = ["identifier", "content", "trigger"]

    /// The request's record.
    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("identifier", identifier)
        record.set("content", record: content.record)
        record.set("trigger", record: trigger?.record)
        return record
    }

    /// The request in `record`.
    init(record: AgentRecordReader) throws(NotificationAgentError) {
        identifier = try record.required("identifier", as: String.self)
        if let content = try record.record("content", keys: NotificationContentSnapshot.recordKeys) {
            self.content = try NotificationContentSnapshot(record: content)
        } else {
            self.content = try NotificationContentSnapshot(record: AgentRecordReader([:], path: "\(record.path).content", keys: []))
        }
        trigger = try record.record("trigger", keys: NotificationTriggerSnapshot.recordKeys).map { (trigger) throws(NotificationAgentError) in
            try NotificationTriggerSnapshot(record: trigger)
        }
    }
}

extension NotificationContentSnapshot {
    static let recordKeys: Set<String> = [
        "title", "subtitle", "body", "badge", "sound", "attachments", "userInfo", "categoryIdentifier", "threadIdentifier",
        "launchImageName", "targetContentIdentifier", "interruptionLevel", "relevanceScore", "filterCriteria",
        "summaryArgument", "summaryArgumentCount", "progress", "localizations",
    ]

    /// The content's record; fields with their default values are left out.
    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("title", nonEmpty: title)
        record.set("subtitle", nonEmpty: subtitle)
        record.set("body", nonEmpty: body)
        record.set("badge", integer: badge)
        record.set("sound", record: sound?.record)
        record.set("attachments", records: attachments.map(\.record))
        if !userInfo.isEmpty { record.set("userInfo", raw: PropertyListValue.record(of: userInfo)) }
        record.set("categoryIdentifier", nonEmpty: categoryIdentifier)
        record.set("threadIdentifier", nonEmpty: threadIdentifier)
        record.set("launchImageName", nonEmpty: launchImageName)
        record.set("targetContentIdentifier", targetContentIdentifier)
        if interruptionLevel != UNNotificationInterruptionLevel.active.rawValue {
            record.set("interruptionLevel", UInt32(clamping: interruptionLevel))
        }
        if relevanceScore != 0 { record.set("relevanceScore", relevanceScore) }
        record.set("filterCriteria", filterCriteria)
        record.set("summaryArgument", nonEmpty: summaryArgument)
        if summaryArgumentCount != 0 { record.set("summaryArgumentCount", integer: summaryArgumentCount) }
        record.set("progress", progress)
        record.set("localizations", record: localizations?.record)
        return record
    }

    /// The content in `record`.
    init(record: AgentRecordReader) throws(NotificationAgentError) {
        title = try record.value("title", or: "")
        subtitle = try record.value("subtitle", or: "")
        body = try record.value("body", or: "")
        badge = try record.integer("badge")
        sound = try record.record("sound", keys: NotificationSoundSnapshot.recordKeys).map { (sound) throws(NotificationAgentError) in
            try NotificationSoundSnapshot(record: sound)
        }
        attachments = try record.records("attachments", keys: NotificationAttachmentSnapshot.recordKeys) { (attachment) throws(NotificationAgentError) in
            try NotificationAttachmentSnapshot(record: attachment)
        }
        userInfo = try record.raw("userInfo").map { (value) throws(NotificationAgentError) in
            try PropertyListValue.dictionary(record: value, path: "\(record.path).userInfo")
        } ?? [:]
        categoryIdentifier = try record.value("categoryIdentifier", or: "")
        threadIdentifier = try record.value("threadIdentifier", or: "")
        launchImageName = try record.value("launchImageName", or: "")
        targetContentIdentifier = try record.optional("targetContentIdentifier")
        interruptionLevel = UInt(try record.value("interruptionLevel", or: UInt32(UNNotificationInterruptionLevel.active.rawValue)))
        relevanceScore = try record.value("relevanceScore", or: 0)
        filterCriteria = try record.optional("filterCriteria")
        summaryArgument = try record.value("summaryArgument", or: "")
        summaryArgumentCount = try record.integer("summaryArgumentCount") ?? 0
        progress = try record.optional("progress")
        localizations = try record.record("localizations", keys: DeferredLocalizations.recordKeys).map {
            (localizations) throws(NotificationAgentError) in try DeferredLocalizations(record: localizations)
        }
    }
}

extension NotificationTriggerSnapshot {
    static let recordKeys: Set<String> = ["kind", "repeats", "interval", "anchorDate", "dateComponents", "region"]

    /// The trigger's record.
    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        switch self {
        case .push:
            record.set("kind", "push")
        case .timeInterval(let interval, let repeats, let anchorDate):
            record.set("kind", "timeInterval")
            record.set("interval", interval)
            record.set("repeats", ifTrue: repeats)
            record.set("anchorDate", date: anchorDate)
        case .calendar(let components, let repeats):
            record.set("kind", "calendar")
            record.set("dateComponents", record: components.record)
            record.set("repeats", ifTrue: repeats)
        case .location(let region, let repeats):
            record.set("kind", "location")
            record.set("region", record: region.record)
            record.set("repeats", ifTrue: repeats)
        }
        return record
    }

    /// The trigger in `record`: its kind's fields, and no other.
    init(record: AgentRecordReader) throws(NotificationAgentError) {
        let kind = try record.required("kind", as: String.self)
        let repeats = try record.value("repeats", or: false)
        let fields: Set<String>
        switch kind {
        case "push":
            fields = ["kind"]
            self = .push
        case "timeInterval":
            fields = ["kind", "repeats", "interval", "anchorDate"]
            self = .timeInterval(try record.required("interval"), repeats: repeats, anchorDate: try record.date("anchorDate"))
        case "calendar":
            fields = ["kind", "repeats", "dateComponents"]
            let components = try record.record("dateComponents", keys: DateComponents.recordKeys).map {
                (components) throws(NotificationAgentError) in try DateComponents(record: components)
            }
            self = .calendar(components ?? DateComponents(), repeats: repeats)
        case "location":
            fields = ["kind", "repeats", "region"]
            guard let region = try record.record("region", keys: LocationTriggerRegion.recordKeys) else {
                throw .invalidArgument("\(record.path) lacks the field region")
            }
            self = .location(try LocationTriggerRegion(record: region), repeats: repeats)
        default:
            throw .invalidArgument("\(record.path).kind is not a trigger kind: \(String(reflecting: kind))")
        }
        // A field of another kind of trigger is a mistake of the sender's, not ignored.
        try record.allowing(only: fields)
    }
}

extension NotificationSoundSnapshot {
    static let recordKeys: Set<String> = ["name", "kind", "audioVolume"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("name", name)
        record.set("kind", kind.rawValue)
        record.set("audioVolume", audioVolume.map(Double.init))
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        name = try record.optional("name")
        let kindName = try record.value("kind", or: UNNotificationSound.Kind.alert.rawValue)
        guard let kind = UNNotificationSound.Kind(rawValue: kindName) else {
            throw .invalidArgument("\(record.path).kind is not a sound kind: \(String(reflecting: kindName))")
        }
        self.kind = kind
        audioVolume = try record.optional("audioVolume", as: Double.self).map { Float($0) }
    }
}

extension NotificationAttachmentSnapshot {
    static let recordKeys: Set<String> = ["identifier", "url", "type", "isThumbnailHidden", "thumbnailClippingRect"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("identifier", nonEmpty: identifier)
        record.set("url", url.absoluteString)
        record.set("type", nonEmpty: type)
        record.set("isThumbnailHidden", ifTrue: isThumbnailHidden)
        if let rect = thumbnailClippingRect {
            record.set("thumbnailClippingRect", raw: .structure([.double(rect.x), .double(rect.y), .double(rect.width), .double(rect.height)]))
        }
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        identifier = try record.value("identifier", or: "")
        let text = try record.required("url", as: String.self)
        guard let url = URL(string: text) else { throw .invalidArgument("\(record.path).url is not a URL") }
        self.url = url
        type = try record.value("type", or: "")
        isThumbnailHidden = try record.value("isThumbnailHidden", or: false)
        if let value = record.raw("thumbnailClippingRect") {
            guard case .structure(let fields) = value, fields.count == 4,
                case .double(let x) = fields[0], case .double(let y) = fields[1],
                case .double(let width) = fields[2], case .double(let height) = fields[3]
            else { throw .invalidArgument("\(record.path).thumbnailClippingRect is not a (dddd)") }
            let rect = ThumbnailClippingRect(x: x, y: y, width: width, height: height)
            // As UNNotificationAttachment(identifier:url:options:) refuses it: the thumbnail's
            // pixel region converts a rectangle that is not finite to integers, which traps.
            guard rect.isValid else {
                throw .invalidArgument("\(record.path).thumbnailClippingRect is not finite, of positive size and within the unit square")
            }
            thumbnailClippingRect = rect
        } else {
            thumbnailClippingRect = nil
        }
    }
}

extension LocationTriggerRegion {
    static let recordKeys: Set<String> = ["identifier", "latitude", "longitude", "radius", "notifyOnEntry", "notifyOnExit", "circular"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("identifier", identifier)
        record.set("latitude", latitude)
        record.set("longitude", longitude)
        record.set("radius", radius)
        record.set("notifyOnEntry", notifyOnEntry)
        record.set("notifyOnExit", notifyOnExit)
        record.set("circular", circular)
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        self.init(
            latitude: try record.required("latitude"), longitude: try record.required("longitude"),
            radius: try record.required("radius"), identifier: try record.value("identifier", or: ""),
            notifyOnEntry: try record.value("notifyOnEntry", or: true), notifyOnExit: try record.value("notifyOnExit", or: true),
            circular: try record.optional("circular"))
    }
}

extension DeferredLocalizations {
    static let recordKeys: Set<String> = ["title", "subtitle", "body"]
    private static let lookupKeys: Set<String> = ["key", "arguments", "bundlePath"]

    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("title", record: title?.record)
        record.set("subtitle", record: subtitle?.record)
        record.set("body", record: body?.record)
        return record
    }

    init(record: AgentRecordReader) throws(NotificationAgentError) {
        func lookup(_ key: String) throws(NotificationAgentError) -> DeferredLocalization? {
            try record.record(key, keys: Self.lookupKeys).map { (lookup) throws(NotificationAgentError) in
                try DeferredLocalization(record: lookup)
            }
        }
        self.init(title: try lookup("title"), subtitle: try lookup("subtitle"), body: try lookup("body"))
    }
}
