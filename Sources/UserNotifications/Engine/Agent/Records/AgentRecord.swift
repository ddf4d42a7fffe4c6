import DBus
import Foundation

/// An `a{sv}` record of the agent's interface as it is read: the fields of one request,
/// content, trigger, notification, category or response, each a typed D-Bus value.
///
/// A field left out has its default (an empty string, no badge, no trigger …); a field the
/// record does not have, or one of another type, is refused with
/// ``NotificationAgentError/invalidArgument(_:)`` naming where it is (`request.content.badge`),
/// so a misspelt or mistyped field is never dropped without a word. Nesting is bounded by the
/// D-Bus reader (at most 64 containers deep), and the record's bytes by the call's limits.
///
/// A string travels as `s`, unless it holds a NUL character, which a D-Bus string cannot carry:
/// then as `ay`, its UTF-8 bytes (a list of strings as `aay`), so that nothing an app can put
/// in a string is lost on the way (``AgentRecordWriter/text(_:)``).
struct AgentRecordReader {
    /// Where the record is, for errors: `request`, `request.content`, `categories[2]`.
    let path: String
    /// The record's fields, as sent.
    let fields: [String: DBusValue]

    /// Reads `fields`, refusing a key not in `keys`.
    init(_ fields: [String: DBusValue], path: String, keys: Set<String>) throws(NotificationAgentError) {
        for key in fields.keys where !keys.contains(key) {
            throw .invalidArgument("\(path) has no field \(String(reflecting: key))")
        }
        self.path = path
        self.fields = fields
    }

    /// Reads `value`, which must be an `a{sv}`, refusing a key not in `keys`.
    init(_ value: DBusValue, path: String, keys: Set<String>) throws(NotificationAgentError) {
        let fields: [String: DBusValue]
        do {
            fields = try [String: DBusValue].reading(value)
        } catch {
            throw .invalidArgument("\(path): \(error)")
        }
        try self.init(fields, path: path, keys: keys)
    }

    /// The field `key` as `Value`, or `nil` when it is left out.
    func optional<Value: DBusArgument>(_ key: String, as type: Value.Type = Value.self) throws(NotificationAgentError) -> Value? {
        guard let value = fields[key] else { return nil }
        do {
            if Value.self == String.self, case .byteArray = value {
                return try Self.text(value, path: "\(path).\(key)") as? Value
            }
            if Value.self == [String].self, case .array(.array(.byte), let elements) = value {
                var texts: [String] = []
                for (index, element) in elements.enumerated() { texts.append(try Self.text(element, path: "\(path).\(key)[\(index)]")) }
                return texts as? Value
            }
            return try Value.reading(value)
        } catch let error as NotificationAgentError {
            throw error
        } catch {
            throw .invalidArgument("\(path).\(key): \(error)")
        }
    }

    /// The field `key` as `Value`, or `fallback` when it is left out.
    func value<Value: DBusArgument>(_ key: String, or fallback: Value) throws(NotificationAgentError) -> Value {
        try optional(key) ?? fallback
    }

    /// The field `key`, which the record must have.
    func required<Value: DBusArgument>(_ key: String, as type: Value.Type = Value.self) throws(NotificationAgentError) -> Value {
        guard let value = try optional(key, as: Value.self) else { throw .invalidArgument("\(path) lacks the field \(key)") }
        return value
    }

    /// The field `key` as an `Int` (carried as `x`).
    func integer(_ key: String) throws(NotificationAgentError) -> Int? {
        try optional(key, as: Int64.self).map { Int(truncatingIfNeeded: $0) }
    }

    /// The field `key` as a `Date` (carried as `d`, seconds since 2001-01-01 UTC, as `Date`
    /// keeps it), refused when not finite.
    func date(_ key: String) throws(NotificationAgentError) -> Date? {
        guard let seconds = try optional(key, as: Double.self) else { return nil }
        guard seconds.isFinite else { throw .invalidArgument("\(path).\(key) is not a finite date") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// The record in the field `key`, or `nil` when it is left out.
    func record(_ key: String, keys: Set<String>) throws(NotificationAgentError) -> AgentRecordReader? {
        guard let value = fields[key] else { return nil }
        return try AgentRecordReader(value, path: "\(path).\(key)", keys: keys)
    }

    /// The records in the field `key` (`aa{sv}`), each read by `read`; empty when it is left out.
    func records<Element>(
        _ key: String, keys: Set<String>, _ read: (AgentRecordReader) throws(NotificationAgentError) -> Element
    ) throws(NotificationAgentError) -> [Element] {
        guard let list = try optional(key, as: [[String: DBusValue]].self) else { return [] }
        var elements: [Element] = []
        elements.reserveCapacity(list.count)
        for (index, fields) in list.enumerated() {
            elements.append(try read(try AgentRecordReader(fields, path: "\(path).\(key)[\(index)]", keys: keys)))
        }
        return elements
    }

    /// Refuses a field of the record not in `keys`: the fields another case of the record
    /// has (a calendar trigger's `interval`).
    func allowing(only keys: Set<String>) throws(NotificationAgentError) {
        _ = try AgentRecordReader(fields, path: path, keys: keys)
    }

    /// The raw value of the field `key`, for fields of several types (user info).
    func raw(_ key: String) -> DBusValue? { fields[key] }

    /// The string in `value`: an `s`, or the UTF-8 bytes `ay` of one holding NUL.
    static func text(_ value: DBusValue, path: String) throws(NotificationAgentError) -> String {
        switch value {
        case .string(let text): return text
        case .byteArray(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidArgument("\(path) is not UTF-8") }
            return text
        default: throw .invalidArgument("\(path) is a \(value.type.signature), not a string")
        }
    }
}

/// An `a{sv}` record of the agent's interface as it is written: ``AgentRecordReader``'s
/// counterpart. Fields with their default value are left out.
struct AgentRecordWriter {
    /// The fields written.
    private(set) var fields: [String: DBusValue] = [:]

    /// The record as a D-Bus value (`a{sv}`, keys sorted).
    var value: DBusValue { fields.dbusValue }

    /// Writes `value` under `key`; a string (or list of strings) holding NUL as its UTF-8
    /// bytes (``text(_:)``).
    mutating func set(_ key: String, _ value: some DBusArgument) {
        if let text = value as? String {
            fields[key] = Self.text(text)
        } else if let texts = value as? [String], texts.contains(where: \.containsNUL) {
            fields[key] = .array(element: .array(.byte), texts.map { .byteArray(Array($0.utf8)) })
        } else {
            fields[key] = value.dbusValue
        }
    }

    /// Writes `value` under `key` unless it is `nil`.
    mutating func set(_ key: String, _ value: (some DBusArgument)?) {
        if let value { set(key, value) }
    }

    /// Writes `text` under `key` unless it is empty.
    mutating func set(_ key: String, nonEmpty text: String) {
        if !text.isEmpty { fields[key] = Self.text(text) }
    }

    /// `text` as D-Bus carries it in a record: `s`, or `ay` (its UTF-8 bytes) when it holds
    /// a NUL character, which a D-Bus string cannot.
    static func text(_ text: String) -> DBusValue {
        text.containsNUL ? .byteArray(Array(text.utf8)) : .string(text)
    }

    /// Writes `flag` under `key` when it is set.
    mutating func set(_ key: String, ifTrue flag: Bool) {
        if flag { fields[key] = .boolean(true) }
    }

    /// Writes `integer` under `key` (as `x`).
    mutating func set(_ key: String, integer: Int?) {
        if let integer { fields[key] = .int64(Int64(integer)) }
    }

    /// Writes `date` under `key` (as `d`, seconds since 2001-01-01 UTC).
    mutating func set(_ key: String, date: Date?) {
        if let date { fields[key] = .double(date.timeIntervalSinceReferenceDate) }
    }

    /// Writes the record `record` under `key`.
    mutating func set(_ key: String, record: AgentRecordWriter?) {
        if let record { fields[key] = record.value }
    }

    /// Writes `records` under `key` (`aa{sv}`) unless there are none.
    mutating func set(_ key: String, records: [AgentRecordWriter]) {
        if !records.isEmpty { fields[key] = records.map(\.fields).dbusValue }
    }

    /// Writes a raw value under `key` (user info).
    mutating func set(_ key: String, raw: DBusValue) {
        fields[key] = raw
    }
}

extension AgentRecordWriter {
    /// The bytes `value` takes on the wire, near enough to bound what one caller sends and
    /// the agent keeps: each string's and byte array's length, and eight bytes for each other
    /// value and container. The depth is the D-Bus reader's bound.
    static func size(of value: DBusValue) -> Int {
        switch value {
        case .string(let text): 8 + text.utf8.count
        case .objectPath(let path): 8 + path.rawValue.utf8.count
        case .signature(let signature): 8 + signature.rawValue.utf8.count
        case .byteArray(let bytes): 8 + bytes.count
        case .array(_, let elements), .structure(let elements): elements.reduce(8) { $0 + size(of: $1) }
        case .dictionary(_, _, let entries): entries.reduce(8) { $0 + size(of: $1.key) + size(of: $1.value) }
        case .variant(let inner): 8 + size(of: inner)
        default: 8
        }
    }

    /// The bytes of the record `fields` (``size(of:)``).
    static func size(of fields: [String: DBusValue]) -> Int {
        fields.reduce(8) { $0 + 8 + $1.key.utf8.count + size(of: $1.value) }
    }
}
