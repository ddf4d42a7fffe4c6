import Foundation

/// Writes an engine state file's pending requests and delivered notifications without
/// `JSONEncoder`, whose keyed containers took about two thirds of the agent's CPU time when it
/// saved apps of 1,000 pending requests each.
///
/// ``envelope(_:formatVersion:savedAt:)`` has `JSONEncoder` write the file with both lists empty
/// (the state's last two keys, so the text ends `"delivered":[],"pending":[]}}`), then writes
/// the entries into it: those of the common shape (content without sound, attachments, user info
/// or deferred localizations; no trigger, a time-interval or a push trigger) by hand, with the
/// keys sorted as `JSONEncoder` sorts them, the others by `JSONEncoder`, one entry at a time.
/// The text reads back as the same state (a test holds it byte for byte to `JSONEncoder`'s).
enum EngineStateJSONWriter {
    /// The bytes of the state file holding `state`, as `StateFileEnvelope.encode` writes them.
    static func envelope(_ state: EngineState, formatVersion: Int, savedAt: Date) throws -> Data {
        var rest = state
        rest.pending = []
        rest.delivered = []
        let head = try StateFileEnvelope<EngineState>.encodeWhole(rest, formatVersion: formatVersion, savedAt: savedAt)
        // The state's last two keys, with their lists empty, end the file.
        let tail = Array("\"delivered\":[],\"pending\":[]}}".utf8)
        guard head.count >= tail.count, head.suffix(tail.count).elementsEqual(tail) else {
            return try StateFileEnvelope<EngineState>.encodeWhole(state, formatVersion: formatVersion, savedAt: savedAt)
        }
        var out = [UInt8]()
        out.reserveCapacity(head.count + (state.pending.count + state.delivered.count) * 512)
        out.append(contentsOf: head.dropLast(tail.count))
        out.append(contentsOf: "\"delivered\":[".utf8)
        try list(state.delivered, write: write, into: &out)
        out.append(contentsOf: "],\"pending\":[".utf8)
        try list(state.pending, write: write, into: &out)
        out.append(contentsOf: "]}}".utf8)
        return Data(out)
    }

    /// Writes `entries`, comma-separated: by hand where `write` takes one, else by
    /// `JSONEncoder`.
    private static func list<Entry: Encodable>(
        _ entries: [Entry], write: (Entry, inout [UInt8]) -> Bool, into out: inout [UInt8]
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if !write(entry, &out) { out.append(contentsOf: try encoder.encode(entry)) }
        }
    }

    /// Writes a delivered `entry` when its request has the common shape and its date is
    /// finite; `false` (nothing written) otherwise.
    static func write(_ entry: EngineState.Delivered, into out: inout [UInt8]) -> Bool {
        let date = entry.notification.date.timeIntervalSinceReferenceDate
        guard date.isFinite, writable(entry.notification.request) else { return false }
        raw("{\"id\":", &out)
        raw(String(entry.id), &out)
        if let nonce = entry.nonce { field("nonce", nonce, &out) }
        raw(",\"notification\":{\"date\":", &out)
        raw(number(date), &out)
        raw(",\"request\":", &out)
        write(entry.notification.request, into: &out)
        out.append(UInt8(ascii: "}"))
        field("server", entry.server, &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// The JSON of `request` as `JSONEncoder` writes it (keys sorted, slashes as they are),
    /// when it has the common shape; `nil` otherwise (``AgentPayload`` encodes a request so).
    static func request(_ request: NotificationRequestSnapshot) -> [UInt8]? {
        guard writable(request) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(request, into: &out)
        return out
    }

    /// Writes a pending `entry` when its request has the common shape and every number is
    /// finite; `false` (nothing written) otherwise.
    static func write(_ entry: EngineState.Pending, into out: inout [UInt8]) -> Bool {
        guard entry.anchor.timeIntervalSinceReferenceDate.isFinite, entry.nextFire.timeIntervalSinceReferenceDate.isFinite,
            writable(entry.request)
        else { return false }
        raw("{\"anchor\":", &out)
        raw(number(entry.anchor.timeIntervalSinceReferenceDate), &out)
        raw(",\"nextFire\":", &out)
        raw(number(entry.nextFire.timeIntervalSinceReferenceDate), &out)
        raw(",\"request\":", &out)
        write(entry.request, into: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Whether `request` has the common shape and finite numbers.
    private static func writable(_ request: NotificationRequestSnapshot) -> Bool {
        let content = request.content
        guard content.sound == nil, content.attachments.isEmpty, content.userInfo.isEmpty, content.localizations == nil,
            content.relevanceScore.isFinite, content.progress == nil
        else { return false }
        switch request.trigger {
        case nil, .push?: return true
        case .timeInterval(let interval, _, let anchorDate)?:
            return interval.isFinite && (anchorDate?.timeIntervalSinceReferenceDate.isFinite ?? true)
        default: return false
        }
    }

    /// Writes `request` (checked by ``writable(_:)``).
    private static func write(_ request: NotificationRequestSnapshot, into out: inout [UInt8]) {
        let content = request.content
        raw("{\"content\":{\"attachments\":[]", &out)
        if let badge = content.badge {
            raw(",\"badge\":", &out)
            raw(String(badge), &out)
        }
        field("body", content.body, &out)
        field("categoryIdentifier", content.categoryIdentifier, &out)
        if let filterCriteria = content.filterCriteria { field("filterCriteria", filterCriteria, &out) }
        raw(",\"interruptionLevel\":", &out)
        raw(String(content.interruptionLevel), &out)
        field("launchImageName", content.launchImageName, &out)
        raw(",\"relevanceScore\":", &out)
        raw(number(content.relevanceScore), &out)
        field("subtitle", content.subtitle, &out)
        field("summaryArgument", content.summaryArgument, &out)
        raw(",\"summaryArgumentCount\":", &out)
        raw(String(content.summaryArgumentCount), &out)
        if let target = content.targetContentIdentifier { field("targetContentIdentifier", target, &out) }
        field("threadIdentifier", content.threadIdentifier, &out)
        field("title", content.title, &out)
        raw(",\"userInfo\":{}}", &out)
        field("identifier", request.identifier, &out)
        switch request.trigger {
        case .push?: raw(",\"trigger\":{\"push\":{}}", &out)
        case .timeInterval(let interval, let repeats, let anchorDate)?:
            raw(",\"trigger\":{\"timeInterval\":{\"_0\":", &out)
            raw(number(interval), &out)
            if let anchorDate {
                raw(",\"anchorDate\":", &out)
                raw(number(anchorDate.timeIntervalSinceReferenceDate), &out)
            }
            raw(repeats ? ",\"repeats\":true}}" : ",\"repeats\":false}}", &out)
        default: break
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"key":"value"`.
    private static func field(_ key: StaticString, _ value: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        string(value, &out)
    }

    /// Appends `text` as it is.
    private static func raw(_ text: String, _ out: inout [UInt8]) {
        out.append(contentsOf: text.utf8)
    }

    /// A finite double as `JSONEncoder` writes it: its shortest round-trip form, without a
    /// trailing `.0`.
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// A JSON string: `"` and `\` escaped, control characters as `JSONEncoder` escapes them,
    /// everything else (`/` too) as it is.
    static func string(_ value: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
