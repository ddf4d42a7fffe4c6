import Foundation

/// Reads the request JSON the agent takes most (``AgentPayload/request(from:)``) without
/// `JSONDecoder`, which took 56% of the agent's CPU time in a batch of 100,000 adds: the
/// text is parsed into a ``JSONTree`` and the snapshot built from it directly.
///
/// Only the common shape is read here: content without attachments, user info, sound or
/// deferred localizations, and no trigger, a time-interval trigger or a push trigger. For
/// anything else — another shape, a key given twice, a number that is not exactly an integer
/// where one is wanted, a value of the wrong type, a missing key — ``request(from:)`` answers
/// `nil` and the caller decodes with `JSONDecoder`, which decides and reports. What this
/// answers is the value `JSONDecoder` gives for the same text (a differential test and the
/// `request-json` fuzz target hold it to that).
enum FastRequestDecoder {
    /// The request in `json`, or `nil` to leave it to `JSONDecoder`.
    static func request(from json: String) -> NotificationRequestSnapshot? {
        guard let tree = JSONTree.parse(json), let fields = Fields(tree) else { return nil }
        guard let identifier = fields.string("identifier"),
            let content = fields["content"].flatMap(Self.content)
        else { return nil }
        let trigger: NotificationTriggerSnapshot?
        switch fields["trigger"] {
        case nil, .null?: trigger = nil
        case let value?:
            guard let value = Self.trigger(value) else { return nil }
            trigger = value
        }
        return NotificationRequestSnapshot(identifier: identifier, content: content, trigger: trigger)
    }

    private static func content(_ tree: JSONTree) -> NotificationContentSnapshot? {
        guard let fields = Fields(tree),
            fields.absentOrNull("sound"), fields.absentOrNull("localizations"), fields.absentOrNull("progress"),
            case .array(let attachments)? = fields["attachments"], attachments.isEmpty,
            case .object(let userInfo)? = fields["userInfo"], userInfo.isEmpty,
            let title = fields.string("title"), let subtitle = fields.string("subtitle"), let body = fields.string("body"),
            let categoryIdentifier = fields.string("categoryIdentifier"), let threadIdentifier = fields.string("threadIdentifier"),
            let launchImageName = fields.string("launchImageName"), let summaryArgument = fields.string("summaryArgument"),
            let interruptionLevel = fields.integer("interruptionLevel", as: UInt.self),
            let summaryArgumentCount = fields.integer("summaryArgumentCount", as: Int.self),
            let relevanceScore = fields.double("relevanceScore"),
            let badge = fields.optional("badge", { integer($0, as: Int.self) }),
            let targetContentIdentifier = fields.optional("targetContentIdentifier", stringValue),
            let filterCriteria = fields.optional("filterCriteria", stringValue)
        else { return nil }
        return NotificationContentSnapshot(
            title: title, subtitle: subtitle, body: body, badge: badge, categoryIdentifier: categoryIdentifier,
            threadIdentifier: threadIdentifier, launchImageName: launchImageName, targetContentIdentifier: targetContentIdentifier,
            interruptionLevel: interruptionLevel, relevanceScore: relevanceScore, filterCriteria: filterCriteria,
            summaryArgument: summaryArgument, summaryArgumentCount: summaryArgumentCount)
    }

    /// A synthesized enum's form: one key naming the case, its associated values in an object.
    private static func trigger(_ tree: JSONTree) -> NotificationTriggerSnapshot? {
        guard let members = tree.members, members.count == 1, let values = Fields(members[0].value) else { return nil }
        switch members[0].key {
        case "push":
            return values.only([]) ? .push : nil
        case "timeInterval":
            guard values.only(["_0", "repeats", "anchorDate"]), let interval = values.double("_0"),
                case .bool(let repeats)? = values["repeats"],
                let anchor = values.optional("anchorDate", doubleValue)
            else { return nil }
            return .timeInterval(interval, repeats: repeats, anchorDate: anchor.map(Date.init(timeIntervalSinceReferenceDate:)))
        default:
            return nil
        }
    }

    private static func stringValue(_ tree: JSONTree) -> String? {
        if case .string(let value) = tree { return value }
        return nil
    }

    /// An integer written as digits alone (no fraction or exponent, no sign for an unsigned
    /// `Value`), within `Value`.
    private static func integer<Value: FixedWidthInteger>(_ tree: JSONTree, as: Value.Type) -> Value? {
        guard case .number(let text) = tree, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
            Value.isSigned || !text.hasPrefix("-")
        else { return nil }
        return Value(text)
    }

    /// A number that reads as a finite double.
    private static func doubleValue(_ tree: JSONTree) -> Double? {
        guard case .number(let text) = tree, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// An object's members by key; `nil` (left to `JSONDecoder`) for anything else or a
    /// key given twice, or more than ``maximumKeys`` keys. Objects here have a few keys, so
    /// they are looked up in order (no hashing), and keys of different lengths are told apart
    /// before their text is compared: most keys compared are not the one looked for, and
    /// `String`'s `==` on two different short strings takes its slow path (in a batch of
    /// requests these comparisons were a tenth of the agent's work).
    private struct Fields {
        /// The most keys read here: the content has 17.
        static let maximumKeys = 32
        private let members: [(key: String, value: JSONTree)]

        init?(_ tree: JSONTree) {
            guard let members = tree.members, members.count <= Self.maximumKeys else { return nil }
            for index in members.indices.dropFirst() {
                let key = members[index].key
                for earlier in members[..<index] where Self.same(earlier.key, key) { return nil }
            }
            self.members = members
        }

        /// Whether `a` and `b` are the same key: the length first (constant time), then the text.
        private static func same(_ a: String, _ b: String) -> Bool {
            a.utf8.count == b.utf8.count && a == b
        }

        subscript(key: String) -> JSONTree? {
            for member in members where Self.same(member.key, key) { return member.value }
            return nil
        }

        /// Whether every key is one of `keys` (the keys `JSONDecoder` would read).
        func only(_ keys: [String]) -> Bool {
            members.allSatisfy { member in keys.contains { Self.same($0, member.key) } }
        }

        func absentOrNull(_ key: String) -> Bool {
            switch self[key] {
            case nil, .null?: true
            default: false
            }
        }

        func string(_ key: String) -> String? { self[key].flatMap(FastRequestDecoder.stringValue) }

        func integer<Value: FixedWidthInteger>(_ key: String, as type: Value.Type) -> Value? {
            self[key].flatMap { FastRequestDecoder.integer($0, as: type) }
        }

        func double(_ key: String) -> Double? { self[key].flatMap(FastRequestDecoder.doubleValue) }

        /// `.some(nil)` when `key` is absent or null, `.some(value)` when it reads, `nil` when
        /// it does not.
        func optional<Value>(_ key: String, _ read: (JSONTree) -> Value?) -> Value?? {
            switch self[key] {
            case nil, .null?: .some(nil)
            case let value?: read(value).map(Optional.some)
            }
        }
    }
}

extension NotificationRequestSnapshot {
    /// A snapshot of the given values (``FastRequestDecoder``).
    init(identifier: String, content: NotificationContentSnapshot, trigger: NotificationTriggerSnapshot?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
    }
}

extension NotificationContentSnapshot {
    /// A snapshot of the given values, with no sound, attachments, user info or deferred
    /// localizations (``FastRequestDecoder``).
    init(
        title: String, subtitle: String, body: String, badge: Int?, categoryIdentifier: String, threadIdentifier: String,
        launchImageName: String, targetContentIdentifier: String?, interruptionLevel: UInt, relevanceScore: Double,
        filterCriteria: String?, summaryArgument: String, summaryArgumentCount: Int
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        sound = nil
        attachments = []
        userInfo = [:]
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
        self.launchImageName = launchImageName
        self.targetContentIdentifier = targetContentIdentifier
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.summaryArgument = summaryArgument
        self.summaryArgumentCount = summaryArgumentCount
        progress = nil
        localizations = nil
    }
}
