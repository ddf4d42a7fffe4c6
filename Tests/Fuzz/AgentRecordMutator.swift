import DBus
import Foundation
import UserNotifications

/// The bytes of one input read as choices: each call takes the next byte (0 once they run
/// out), so that every input makes some tree and a mutated input makes a nearby one.
struct ChoiceStream {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether bytes are left.
    var hasMore: Bool { position < bytes.count }

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    /// A number below `count` (at least 1).
    mutating func below(_ count: Int) -> Int {
        let wide = Int(byte()) << 8 | Int(byte())
        return wide % max(count, 1)
    }

    mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }

    mutating func chance(_ inTwoHundredFiftySix: UInt8) -> Bool { byte() < inTwoHundredFiftySix }
}

/// The fields of each record of the agent's interface, as `Records/*+Record.swift` list them:
/// what the generator fills with values of the right type (to get past the first checks) or
/// of a wrong one.
enum RecordField: Sendable {
    case string, int64, uint32, double, date, bool, strings, rect, arguments, userInfo
    case oneOf([String])
    case record(String)
    case records(String)
}

enum RecordSchema {
    static let triggerKinds = ["push", "timeInterval", "calendar", "location"]
    static let calendarNames = [
        "gregorian", "buddhist", "chinese", "coptic", "ethiopicAmeteMihret", "ethiopicAmeteAlem", "hebrew", "iso8601", "indian",
        "islamic", "islamicCivil", "japanese", "persian", "republicOfChina", "islamicTabular", "islamicUmmAlQura",
        "", "Gregorian", "julian", "gregorian\0", "iso8601 ", "..", String(repeating: "a", count: 300),
    ]
    static let zoneNames = [
        "UTC", "GMT", "Europe/Berlin", "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati", "GMT+14", "GMT-12", "EST5EDT", "Etc/GMT+5",
        "", "Mars/Olympus", "../../etc/passwd", "/etc/localtime", "GMT+99", "UTC+25:00", "\0", "Europe/Berlin\0x", "+0530", String(repeating: "Z", count: 1000),
    ]
    static let localeNames = ["en_US", "he_IL", "ar_SA@calendar=islamic", "", "@@@", "zz_ZZ", "en_US_POSIX", "th_TH@numbers=thai"]
    static let soundKinds = ["alert", "critical", "ringtone", "", "Critical", "none"]
    static let urls = [
        "file:///tmp/a.png", "file:///", "https://example.org/x.png", "", " ", "file://%00", "file:///tmp/a b.png", "::", "http://[::1",
        "file:///tmp/%E2%9C%93.png", "data:image/png;base64,AAAA", "file:///tmp/../../etc/passwd", "a\u{0}b", "%", "file:///tmp/a#frag?q",
    ]
    static let bundlePaths = ["/", "/nonexistent/App.app", "/tmp", "", "relative/path", "/proc/self", "/dev/null"]

    /// The fields of each record, by the name the schema gives it.
    static let records: [String: [(String, RecordField)]] = [
        "request": [("identifier", .string), ("content", .record("content")), ("trigger", .record("trigger"))],
        "content": [
            ("title", .string), ("subtitle", .string), ("body", .string), ("categoryIdentifier", .string), ("threadIdentifier", .string),
            ("launchImageName", .string), ("targetContentIdentifier", .string), ("filterCriteria", .string), ("summaryArgument", .string),
            ("badge", .int64), ("summaryArgumentCount", .int64), ("interruptionLevel", .uint32), ("relevanceScore", .double),
            ("progress", .double), ("sound", .record("sound")), ("attachments", .records("attachment")), ("userInfo", .userInfo),
            ("localizations", .record("localizations")),
        ],
        "trigger": [
            ("kind", .oneOf(triggerKinds + ["", "Push", "interval"])), ("repeats", .bool), ("interval", .double), ("anchorDate", .date),
            ("dateComponents", .record("components")), ("region", .record("region")),
        ],
        "sound": [("name", .string), ("kind", .oneOf(soundKinds)), ("audioVolume", .double)],
        "attachment": [("identifier", .string), ("url", .oneOf(urls)), ("type", .string), ("isThumbnailHidden", .bool), ("thumbnailClippingRect", .rect)],
        "region": [
            ("identifier", .string), ("latitude", .double), ("longitude", .double), ("radius", .double), ("notifyOnEntry", .bool),
            ("notifyOnExit", .bool), ("circular", .bool),
        ],
        "localizations": [("title", .record("lookup")), ("subtitle", .record("lookup")), ("body", .record("lookup"))],
        "lookup": [("key", .string), ("arguments", .arguments), ("bundlePath", .oneOf(bundlePaths))],
        "components": [
            ("era", .int64), ("year", .int64), ("month", .int64), ("day", .int64), ("hour", .int64), ("minute", .int64), ("second", .int64),
            ("nanosecond", .int64), ("weekday", .int64), ("weekdayOrdinal", .int64), ("quarter", .int64), ("weekOfMonth", .int64),
            ("weekOfYear", .int64), ("yearForWeekOfYear", .int64), ("dayOfYear", .int64), ("isLeapMonth", .bool),
            ("timeZone", .oneOf(zoneNames)), ("calendar", .record("calendar")),
        ],
        "calendar": [
            ("identifier", .oneOf(calendarNames)), ("timeZone", .oneOf(zoneNames)), ("locale", .oneOf(localeNames)),
            ("firstWeekday", .int64), ("minimumDaysInFirstWeek", .int64),
        ],
        "notification": [("date", .date), ("request", .record("request"))],
        "response": [("notification", .record("notification")), ("actionIdentifier", .string), ("userText", .string), ("activationToken", .string)],
        "category": [
            ("identifier", .string), ("actions", .records("action")), ("intentIdentifiers", .strings), ("options", .uint32),
            ("hiddenPreviewsBodyPlaceholder", .string), ("categorySummaryFormat", .string),
        ],
        "action": [
            ("identifier", .string), ("title", .string), ("options", .uint32), ("icon", .record("icon")), ("textInput", .bool),
            ("textInputButtonTitle", .string), ("textInputPlaceholder", .string),
        ],
        "icon": [("template", .string), ("system", .string)],
    ]

    /// Every field name of every record: a field of one record is an unknown key in another.
    static let allKeys: [String] = Array(Set(records.values.flatMap { $0.map(\.0) })).sorted() + ["", "Identifier", "identifier\0", "_0", "é"]

    static func schema(of kind: AgentRecordKind) -> String {
        switch kind {
        case .request, .requests: "request"
        case .content: "content"
        case .notification, .notifications: "notification"
        case .categories: "category"
        case .response: "response"
        }
    }
}

/// Makes hostile `DBusValue` trees from a ``ChoiceStream``: records generated field by field
/// (each field of its type or another), and mutations of any node of a record (a wrong type,
/// an unknown or missing key, huge strings near and over the argument limit, non-finite and
/// edge numbers, deep and wide user info within the D-Bus nesting limit, splices).
struct AgentRecordMutator {
    /// The D-Bus reader's bound: containers (arrays, structs, variants) at one point of a value.
    static let maximumContainers = 64
    var choices: ChoiceStream

    // MARK: - Leaves

    static let edgeDoubles: [Double] = [
        .nan, -.nan, .infinity, -.infinity, 0, -0.0, 1, -1, 0.5, 59.999, 60, 1e300, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        Double(Int64.max), 9.3e18, -9.3e18, 3.2e9, 86_400, 1e-300, 90.0000001, -180.5, Double(bitPattern: 0x7FF0_0000_0000_0001),
    ]
    static let edgeIntegers: [Int64] = [0, 1, -1, 7, 8, 13, 60, 1_000_000_000, Int64(Int32.max) + 1, Int64.max, Int64.min, Int64.max - 1, -2_147_483_649]
    static let edgeStrings: [String] = [
        "", "a", "%@", "%999999999$@", "%1$@ %2$d %3$u %4$f", "\0", "\u{FFFD}", "\u{202E}", "\u{1F600}", "\n\t", "default",
        "com.apple.UNNotificationDefaultActionIdentifier", "com.apple.UNNotificationDismissActionIdentifier", "../..", "/etc/passwd",
    ]

    mutating func string() -> String {
        switch choices.below(4) {
        case 0: return choices.pick(Self.edgeStrings)
        case 1: return String(repeating: choices.pick(["a", "é", "\u{1F600}", "%@"]), count: choices.pick([64, 1000, 65_536]))
        default:
            let count = choices.below(12)
            return String(decoding: (0..<count).map { _ in choices.byte() }, as: UTF8.self)
        }
    }

    mutating func double() -> Double {
        choices.chance(160) ? choices.pick(Self.edgeDoubles) : Double(Int8(bitPattern: choices.byte())) / 4
    }

    mutating func integer() -> Int64 {
        choices.chance(128) ? choices.pick(Self.edgeIntegers) : Int64(Int8(bitPattern: choices.byte()))
    }

    /// A value of any type D-Bus has, within `room` more containers.
    mutating func anyValue(room: Int) -> DBusValue {
        let leafKinds = 13
        let kinds = room >= 3 ? leafKinds + 7 : leafKinds
        switch choices.below(kinds) {
        case 0: return .byte(choices.byte())
        case 1: return .boolean(choices.chance(128))
        case 2: return .int16(Int16(truncatingIfNeeded: integer()))
        case 3: return .uint16(UInt16(truncatingIfNeeded: integer()))
        case 4: return .int32(Int32(truncatingIfNeeded: integer()))
        case 5: return .uint32(UInt32(truncatingIfNeeded: integer()))
        case 6: return .int64(integer())
        case 7: return .uint64(choices.pick([0, UInt64(Int64.max), UInt64(Int64.max) + 1, .max]))
        case 8: return .double(double())
        case 9: return .string(string())
        case 10: return .objectPath((try? DBusObjectPath(choices.pick(["/", "/org/example"]))) ?? DBusObjectPath.root)
        case 11: return (try? DBusSignature(choices.pick(["", "s", "a{sv}"]))).map(DBusValue.signature) ?? .string("")
        case 12: return .byteArray((0..<choices.below(8)).map { _ in choices.byte() })
        case 13: return .structure([.double(double())])
        case 14: return .structure((0..<choices.below(6)).map { _ in .double(double()) })
        case 15: return .variant(anyValue(room: room - 1))
        case 16: return .array(element: .variant, (0..<choices.below(4)).map { _ in .variant(anyValue(room: room - 2)) })
        case 17: return .stringArray((0..<choices.below(4)).map { _ in string() })
        case 18: return .array(element: .dictionary(key: .string, value: .variant), [])
        default: return userInfo(room: room, width: choices.below(4))
        }
    }

    // MARK: - User info

    /// An `a{sv}` of property-list values (and of others), `width` entries, nested within `room`.
    mutating func userInfo(room: Int, width: Int) -> DBusValue {
        guard room >= 2 else { return .variantDictionary([]) }
        return .variantDictionary((0..<width).map { index in ("k\(index)", userInfoValue(room: room - 2)) })
    }

    mutating func userInfoValue(room: Int) -> DBusValue {
        switch choices.below(room >= 2 ? 12 : 9) {
        case 0: return .string(string())
        case 1: return .int64(integer())
        case 2: return .double(double())
        case 3: return .boolean(choices.chance(128))
        case 4: return .structure([.double(double())])
        case 5: return .byteArray((0..<choices.below(16)).map { _ in choices.byte() })
        case 6: return .uint64(choices.pick([0, UInt64(Int64.max), UInt64(Int64.max) + 1]))
        case 7: return .int32(Int32(truncatingIfNeeded: integer()))
        case 8: return anyValue(room: room)
        case 9, 10: return .array(element: .variant, (0..<choices.below(4)).map { _ in .variant(userInfoValue(room: room - 2)) })
        default: return userInfo(room: room, width: choices.below(4))
        }
    }

    /// User info nested as deep as the room allows, alternating arrays and dictionaries.
    mutating func deepUserInfo(room: Int) -> DBusValue {
        var value: DBusValue = .string("bottom")
        var used = 0
        let depth = min(room, choices.pick([4, 16, 40, 62, 64]))
        while used + 2 <= depth {
            value = choices.chance(128) ? .array(element: .variant, [.variant(value)]) : .variantDictionary([("d", value)])
            used += 2
        }
        return value
    }

    /// User info with thousands of entries.
    mutating func wideUserInfo() -> DBusValue {
        let width = choices.pick([256, 1024, 3000])
        let kind = choices.below(3)
        return .variantDictionary((0..<width).map { index in
            ("k\(index)", kind == 0 ? .int64(Int64(index)) : kind == 1 ? .string("v") : .array(element: .variant, [.variant(.boolean(true))]))
        })
    }

    // MARK: - Records

    /// A record of the schema `name`, each field left out, of its type, or of another.
    mutating func record(_ name: String, room: Int) -> DBusValue {
        guard room >= 2, let fields = RecordSchema.records[name] else { return .variantDictionary([]) }
        var pairs: [(String, DBusValue)] = []
        for (key, field) in fields where choices.chance(150) {
            pairs.append((key, choices.chance(30) ? anyValue(room: room - 2) : value(of: field, room: room - 2)))
        }
        if choices.chance(20) { pairs.append((choices.pick(RecordSchema.allKeys), anyValue(room: room - 2))) }
        return .variantDictionary(pairs)
    }

    /// A value of the field's type (with edge contents).
    mutating func value(of field: RecordField, room: Int) -> DBusValue {
        switch field {
        case .string: return .string(string())
        case .int64: return .int64(integer())
        case .uint32: return .uint32(UInt32(truncatingIfNeeded: integer()))
        case .double: return .double(double())
        case .date: return .double(choices.chance(200) ? Double(integer() % 10_000_000_000) : double())
        case .bool: return .boolean(choices.chance(128))
        case .strings: return .stringArray((0..<choices.below(4)).map { _ in string() })
        case .rect: return .structure((0..<(choices.chance(220) ? 4 : choices.below(6))).map { _ in .double(double()) })
        case .arguments:
            return .array(element: .variant, (0..<choices.below(5)).map { _ in
                .variant(choices.chance(220) ? choices.pick([.string(string()), .int64(integer()), .uint64(.max), .double(double())]) : anyValue(room: room - 2))
            })
        case .userInfo: return userInfo(room: room, width: choices.below(6))
        case .oneOf(let names): return .string(choices.chance(230) ? choices.pick(names) : string())
        case .record(let name): return record(name, room: room)
        case .records(let name):
            guard room >= 3 else { return .array(element: .dictionary(key: .string, value: .variant), []) }
            return .array(element: .dictionary(key: .string, value: .variant), (0..<choices.below(4)).map { _ in record(name, room: room - 1) })
        }
    }

    // MARK: - Mutations

    /// One node of a tree: its place (child indices) and its depth in containers.
    struct Node {
        var path: [Int]
        var depth: Int
        /// The schema field the node is the value of, when the walk knows it.
        var key: String?
    }

    /// Every node of `value` below the root.
    static func nodes(of value: DBusValue) -> [Node] {
        var nodes: [Node] = []
        func walk(_ value: DBusValue, path: [Int], depth: Int, key: String?) {
            if !path.isEmpty { nodes.append(Node(path: path, depth: depth, key: key)) }
            guard nodes.count < 4096 else { return }
            switch value {
            case .array(_, let elements), .structure(let elements):
                for (index, element) in elements.enumerated() where nodes.count < 4096 {
                    walk(element, path: path + [index], depth: depth + 1, key: nil)
                }
            case .dictionary(_, _, let entries):
                for (index, entry) in entries.enumerated() where nodes.count < 4096 {
                    walk(entry.value, path: path + [index], depth: depth + 1, key: entry.key.stringValue)
                }
            case .variant(let inner):
                walk(inner, path: path + [0], depth: depth + 1, key: key)
            default:
                break
            }
        }
        walk(value, path: [], depth: 0, key: nil)
        return nodes
    }

    /// `value` with the node at `path` changed by `change` (a dictionary entry's value, an
    /// element, a field, a variant's content).
    static func updating(_ value: DBusValue, at path: ArraySlice<Int>, _ change: (DBusValue) -> DBusValue) -> DBusValue {
        guard let index = path.first else { return change(value) }
        let rest = path.dropFirst()
        switch value {
        case .array(let element, var elements) where elements.indices.contains(index):
            elements[index] = updating(elements[index], at: rest, change)
            return .array(element: element, elements)
        case .structure(var elements) where elements.indices.contains(index):
            elements[index] = updating(elements[index], at: rest, change)
            return .structure(elements)
        case .dictionary(let key, let valueType, var entries) where entries.indices.contains(index):
            entries[index].value = updating(entries[index].value, at: rest, change)
            return .dictionary(key: key, value: valueType, entries)
        case .variant(let inner):
            return .variant(updating(inner, at: rest, change))
        default:
            return value
        }
    }

    /// Fixes an array's element type to its elements' after a change (an `av` stays `av`; an
    /// `aa{sv}` whose element became another type becomes an `av` of them), so that the tree
    /// is one D-Bus could carry.
    static func retyped(_ value: DBusValue) -> DBusValue {
        switch value {
        case .array(let element, let elements):
            let fixed = elements.map(retyped)
            if let first = fixed.first, fixed.contains(where: { $0.type != first.type }) || first.type != element {
                if fixed.allSatisfy({ $0.type == first.type }) { return .array(element: first.type, fixed) }
                return .array(element: .variant, fixed.map { if case .variant = $0 { $0 } else { .variant($0) } })
            }
            return .array(element: element, fixed)
        case .structure(let elements): return .structure(elements.map(retyped))
        case .dictionary(let key, let valueType, let entries):
            let fixed = entries.map { DBusDictionaryEntry(retyped($0.key), retyped($0.value)) }
            if valueType == .variant {
                return .dictionary(key: key, value: valueType, fixed.map { entry in
                    if case .variant = entry.value { entry } else { DBusDictionaryEntry(entry.key, .variant(entry.value)) }
                })
            }
            if let first = fixed.first, fixed.contains(where: { $0.value.type != valueType }) {
                return .dictionary(key: key, value: first.value.type, fixed.filter { $0.value.type == first.value.type })
            }
            return .dictionary(key: key, value: valueType, fixed)
        case .variant(let inner): return .variant(retyped(inner))
        default: return value
        }
    }

    /// The bytes the agent counts for a root (`a{sv}` or `aa{sv}`), by ``AgentPayload/size(of:)``.
    static func size(of root: DBusValue) -> Int {
        if let record = try? AgentPayload.Record.reading(root) { return AgentPayload.size(of: record) }
        return ((try? [AgentPayload.Record].reading(root)) ?? []).reduce(0) { $0 + AgentPayload.size(of: $1) }
    }

    /// How many containers deep `value` nests.
    static func depth(of value: DBusValue) -> Int {
        switch value {
        case .array(_, let elements), .structure(let elements): 1 + (elements.map(depth).max() ?? 0)
        case .dictionary(_, _, let entries): 1 + (entries.map { max(depth(of: $0.key), depth(of: $0.value)) }.max() ?? 0)
        case .variant(let inner): 1 + depth(of: inner)
        default: 0
        }
    }

    /// Applies one mutation to `root` (an `a{sv}` or `aa{sv}`, which stays one).
    mutating func mutate(_ root: DBusValue) -> DBusValue {
        let nodes = Self.nodes(of: root)
        guard !nodes.isEmpty else { return .variantDictionary([(choices.pick(RecordSchema.allKeys), anyValue(room: 8))]) }
        let node = choices.pick(nodes)
        let room = Self.maximumContainers - node.depth - 2
        let operation = choices.below(14)
        let changed = Self.updating(root, at: node.path[...]) { value in
            switch operation {
            case 0, 1:
                // A value of another type, or an edge value of the same.
                return anyValue(room: max(room, 0))
            case 2:
                return edge(like: value, key: node.key)
            case 3:
                // An unknown, or a known field of another record, into a record.
                guard case .dictionary(.string, .variant, var entries) = value else { return anyValue(room: max(room, 0)) }
                let key = choices.pick(RecordSchema.allKeys)
                let field = RecordSchema.records.values.lazy.compactMap { $0.first { $0.0 == key }?.1 }.first
                let inner = field.map { self.value(of: $0, room: max(room - 2, 0)) } ?? anyValue(room: max(room - 2, 0))
                entries.insert(DBusDictionaryEntry(.string(key), .variant(inner)), at: choices.below(entries.count + 1))
                return .dictionary(key: .string, value: .variant, entries)
            case 4:
                // A field left out (required ones too), or an element of a list.
                switch value {
                case .dictionary(let key, let valueType, var entries) where !entries.isEmpty:
                    entries.remove(at: choices.below(entries.count))
                    return .dictionary(key: key, value: valueType, entries)
                case .array(let element, var elements) where !elements.isEmpty:
                    elements.remove(at: choices.below(elements.count))
                    return .array(element: element, elements)
                default:
                    return .variantDictionary([])
                }
            case 5:
                // A field twice: the later one wins.
                guard case .dictionary(let key, let valueType, var entries) = value, let entry = entries.first else { return value }
                entries.append(DBusDictionaryEntry(entry.key, choices.chance(128) ? .variant(anyValue(room: max(room - 2, 0))) : entry.value))
                return .dictionary(key: key, value: valueType, entries)
            case 6:
                return deepUserInfo(room: max(room, 0))
            case 7:
                return wideUserInfo()
            case 8:
                // A huge string: the record near, at and over the argument limit.
                let size = Self.size(of: root)
                let target = AgentInterface.maximumArgumentBytes + choices.pick([-4096, -64, -9, -8, -1, 0, 1, 8, 4096, 1 << 20])
                return .string(String(repeating: choices.pick(["x", "é"]), count: max(0, target - size) / 1))
            case 9:
                // A whole record of some schema in its place.
                return record(choices.pick(Array(RecordSchema.records.keys).sorted()), room: max(room, 0))
            case 10:
                // A list element repeated, or a list of lists.
                guard case .array(let element, var elements) = value, let first = elements.first else { return value }
                elements.append(contentsOf: repeatElement(first, count: choices.pick([1, 2, 100])))
                return .array(element: element, elements)
            case 11:
                // A dictionary of another type in place of an `a{sv}`.
                guard case .dictionary(_, _, let entries) = value else { return value }
                switch choices.below(3) {
                case 0: return .dictionary(key: .string, value: .string, entries.map { DBusDictionaryEntry($0.key, .string("v")) })
                case 1: return .dictionary(key: .int32, value: .variant, entries.enumerated().map { DBusDictionaryEntry(.int32(Int32($0.offset)), $0.element.value) })
                default: return .array(element: .variant, entries.map(\.value))
                }
            case 12:
                // The value wrapped in one more variant, or unwrapped.
                if case .variant(let inner) = value { return inner }
                return room > 1 ? .variant(value) : value
            default:
                // A field of the schema the walk knows, of its own type.
                guard let key = node.key,
                      let field = RecordSchema.records.values.lazy.compactMap({ $0.first { $0.0 == key }?.1 }).first else { return value }
                let inner = self.value(of: field, room: max(room, 0))
                if case .variant = value { return .variant(inner) }
                return inner
            }
        }
        let typed = Self.retyped(changed)
        // The D-Bus reader never makes a deeper tree; a mutation that would is not applied.
        return Self.depth(of: typed) <= Self.maximumContainers ? typed : root
    }

    /// An edge value of the same type as `value`: non-finite and extreme numbers, names that
    /// are not calendars, time zones or trigger kinds.
    mutating func edge(like value: DBusValue, key: String?) -> DBusValue {
        switch value {
        case .double: return .double(choices.pick(Self.edgeDoubles))
        case .int64: return .int64(choices.pick(Self.edgeIntegers))
        case .uint32: return .uint32(choices.pick([0, 1, 2, 3, 4, 5, 0x7FFF_FFFF, .max]))
        case .boolean(let flag): return .boolean(!flag)
        case .string:
            switch key {
            case "identifier": return .string(choices.pick(RecordSchema.calendarNames + [""]))
            case "timeZone": return .string(choices.pick(RecordSchema.zoneNames))
            case "kind": return .string(choices.pick(RecordSchema.triggerKinds + RecordSchema.soundKinds))
            case "url": return .string(choices.pick(RecordSchema.urls))
            case "locale": return .string(choices.pick(RecordSchema.localeNames))
            case "bundlePath": return .string(choices.pick(RecordSchema.bundlePaths))
            default: return .string(string())
            }
        case .structure(let fields): return .structure(fields.map { _ in .double(choices.pick(Self.edgeDoubles)) })
        case .variant(let inner): return .variant(edge(like: inner, key: key))
        default: return anyValue(room: 4)
        }
    }
}
