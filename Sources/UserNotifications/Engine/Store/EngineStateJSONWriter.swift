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
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if !write(entry, &out) {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                out.append(contentsOf: try encoder.encode(entry))
            }
        }
    }

    /// Writes a delivered `entry` when its request has the common shape and its date is
    /// finite; `false` (nothing written) otherwise.
    static func write(_ entry: EngineState.Delivered, into out: inout [UInt8]) -> Bool {
        let date = entry.notification.date.timeIntervalSinceReferenceDate
        guard date.isFinite, let trigger = triggerText(of: entry.notification.request) else { return false }
        out.append(contentsOf: "{\"id\":\(entry.id),\"notification\":{\"date\":\(number(date)),\"request\":".utf8)
        write(entry.notification.request, trigger: trigger, into: &out)
        out.append(UInt8(ascii: "}"))
        field("server", entry.server, &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// The JSON of `request` as `JSONEncoder` writes it (keys sorted, slashes as they are),
    /// when it has the common shape; `nil` otherwise (``AgentPayload`` encodes a request so).
    static func request(_ request: NotificationRequestSnapshot) -> [UInt8]? {
        guard let trigger = triggerText(of: request) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(request, trigger: trigger, into: &out)
        return out
    }

    /// Writes a pending `entry` when its request has the common shape and every number is
    /// finite; `false` (nothing written) otherwise.
    static func write(_ entry: EngineState.Pending, into out: inout [UInt8]) -> Bool {
        guard entry.anchor.timeIntervalSinceReferenceDate.isFinite, entry.nextFire.timeIntervalSinceReferenceDate.isFinite,
            let trigger = triggerText(of: entry.request)
        else { return false }
        out.append(contentsOf: "{\"anchor\":\(number(entry.anchor.timeIntervalSinceReferenceDate)),\"nextFire\":".utf8)
        out.append(contentsOf: number(entry.nextFire.timeIntervalSinceReferenceDate).utf8)
        out.append(contentsOf: ",\"request\":".utf8)
        write(entry.request, trigger: trigger, into: &out)
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// The text of `request`'s trigger (empty for none) when the request has the common shape
    /// and its numbers are finite; `nil` otherwise.
    private static func triggerText(of request: NotificationRequestSnapshot) -> String? {
        let content = request.content
        guard content.sound == nil, content.attachments.isEmpty, content.userInfo.isEmpty, content.localizations == nil,
            content.relevanceScore.isFinite
        else { return nil }
        switch request.trigger {
        case nil: return ""
        case .push?: return "{\"push\":{}}"
        case .timeInterval(let interval, let repeats, let anchorDate)?:
            guard interval.isFinite, anchorDate?.timeIntervalSinceReferenceDate.isFinite ?? true else { return nil }
            var text = "{\"timeInterval\":{\"_0\":\(number(interval))"
            if let anchorDate { text += ",\"anchorDate\":\(number(anchorDate.timeIntervalSinceReferenceDate))" }
            return text + ",\"repeats\":\(repeats)}}"
        default: return nil
        }
    }

    /// Writes `request` (checked by ``triggerText(of:)``, whose answer `trigger` is).
    private static func write(_ request: NotificationRequestSnapshot, trigger: String, into out: inout [UInt8]) {
        let content = request.content
        out.append(contentsOf: "{\"content\":{\"attachments\":[]".utf8)
        if let badge = content.badge { out.append(contentsOf: ",\"badge\":\(badge)".utf8) }
        field("body", content.body, &out)
        field("categoryIdentifier", content.categoryIdentifier, &out)
        if let filterCriteria = content.filterCriteria { field("filterCriteria", filterCriteria, &out) }
        out.append(contentsOf: ",\"interruptionLevel\":\(content.interruptionLevel)".utf8)
        field("launchImageName", content.launchImageName, &out)
        out.append(contentsOf: ",\"relevanceScore\":\(number(content.relevanceScore))".utf8)
        field("subtitle", content.subtitle, &out)
        field("summaryArgument", content.summaryArgument, &out)
        out.append(contentsOf: ",\"summaryArgumentCount\":\(content.summaryArgumentCount)".utf8)
        if let target = content.targetContentIdentifier { field("targetContentIdentifier", target, &out) }
        field("threadIdentifier", content.threadIdentifier, &out)
        field("title", content.title, &out)
        out.append(contentsOf: ",\"userInfo\":{}}".utf8)
        field("identifier", request.identifier, &out)
        if !trigger.isEmpty {
            out.append(contentsOf: ",\"trigger\":".utf8)
            out.append(contentsOf: trigger.utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"key":"value"`.
    private static func field(_ key: String, _ value: String, _ out: inout [UInt8]) {
        out.append(contentsOf: ",\"\(key)\":".utf8)
        string(value, &out)
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
