import DBus
import Foundation

// The values inside records that are not records of their own: user info, a deferred
// localization's lookup, and a calendar trigger's date components.

extension PropertyListValue {
    /// `userInfo` as an `a{sv}`: strings `s`, integers `x`, doubles `d`, Booleans `b`, data `ay`,
    /// arrays `av`, dictionaries `a{sv}`; dates as a one-field struct `(d)` (seconds since
    /// 2001-01-01 UTC), so that a date is not read back as a number, and a string holding NUL
    /// (which a D-Bus string cannot carry) as `(ay)` of its UTF-8 bytes, so that it is not read
    /// back as data. A key holding NUL is refused when written (``UserInfoStorageError``).
    static func record(of dictionary: [String: PropertyListValue]) -> DBusValue {
        dictionary.mapValues(\.dbusValue).dbusValue
    }

    /// Refuses a dictionary key holding NUL anywhere in `dictionary`: an `a{sv}` key is a D-Bus
    /// string, which cannot carry one.
    static func checkKeysTravel(_ dictionary: [String: PropertyListValue], keyPath: String = "userInfo") throws(UserInfoStorageError) {
        for (key, value) in dictionary {
            if key.containsNUL {
                throw .valueNotStorable(keyPath: keyPath, typeName: "dictionary whose key \(String(reflecting: key)) holds NUL, which D-Bus cannot carry")
            }
            try value.checkKeysTravel(keyPath: "\(keyPath).\(key)")
        }
    }

    private func checkKeysTravel(keyPath: String) throws(UserInfoStorageError) {
        switch self {
        case .dictionary(let dictionary): try Self.checkKeysTravel(dictionary, keyPath: keyPath)
        case .array(let array):
            for (index, element) in array.enumerated() { try element.checkKeysTravel(keyPath: "\(keyPath)[\(index)]") }
        default: break
        }
    }

    /// The value as D-Bus carries it inside a variant.
    var dbusValue: DBusValue {
        switch self {
        case .string(let text): text.containsNUL ? .structure([.byteArray(Array(text.utf8))]) : .string(text)
        case .integer(let integer): .int64(Int64(integer))
        case .double(let double): .double(double)
        case .bool(let flag): .boolean(flag)
        case .date(let date): .structure([.double(date.timeIntervalSinceReferenceDate)])
        case .data(let data): .byteArray([UInt8](data))
        case .array(let array): .array(element: .variant, array.map { .variant($0.dbusValue) })
        case .dictionary(let dictionary): Self.record(of: dictionary)
        }
    }

    /// The dictionary in `value`, an `a{sv}`.
    static func dictionary(record value: DBusValue, path: String) throws(NotificationAgentError) -> [String: PropertyListValue] {
        guard case .dictionary(.string, .variant, let entries) = value else {
            throw .invalidArgument("\(path) is a \(value.type.signature), not an a{sv}")
        }
        var dictionary = [String: PropertyListValue](minimumCapacity: entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let inner) = entry.value else {
                throw .invalidArgument("\(path) has an entry that is not a string and a variant")
            }
            dictionary[key] = try PropertyListValue(record: inner, path: "\(path).\(key)")
        }
        return dictionary
    }

    /// The value in `value`: any integer type that fits an `Int` is an integer; a double must
    /// be finite, as `userInfo` takes it.
    init(record value: DBusValue, path: String) throws(NotificationAgentError) {
        switch value {
        case .string(let text): self = .string(text)
        case .boolean(let flag): self = .bool(flag)
        case .byte(let number): self = .integer(Int(number))
        case .int16(let number): self = .integer(Int(number))
        case .uint16(let number): self = .integer(Int(number))
        case .int32(let number): self = .integer(Int(number))
        case .uint32(let number): self = .integer(Int(number))
        case .int64(let number): self = .integer(Int(number))
        case .uint64(let number):
            guard let integer = Int(exactly: number) else { throw .invalidArgument("\(path) is too large for an Int") }
            self = .integer(integer)
        case .double(let double):
            guard double.isFinite else { throw .invalidArgument("\(path) is not a finite number") }
            self = .double(double)
        case .byteArray(let bytes): self = .data(Data(bytes))
        case .structure(let fields):
            switch fields.first {
            case .double(let seconds)? where fields.count == 1 && seconds.isFinite:
                self = .date(Date(timeIntervalSinceReferenceDate: seconds))
            case .byteArray? where fields.count == 1:
                self = .string(try AgentRecordReader.text(fields[0], path: path))
            default:
                throw .invalidArgument("\(path) is a \(value.type.signature); a date is a (d), a string holding NUL an (ay)")
            }
        case .array(.variant, let elements):
            var array: [PropertyListValue] = []
            array.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .variant(let inner) = element else { throw .invalidArgument("\(path)[\(index)] is not a variant") }
                array.append(try PropertyListValue(record: inner, path: "\(path)[\(index)]"))
            }
            self = .array(array)
        case .dictionary(.string, .variant, _):
            self = .dictionary(try Self.dictionary(record: value, path: path))
        default:
            throw .invalidArgument("\(path) is a \(value.type.signature), which user info does not hold")
        }
    }
}

extension DeferredLocalization {
    /// The lookup's record: `key` s, `arguments` av (strings `s`, integers `x`, unsigned
    /// integers `t`, doubles `d`), `bundlePath` s.
    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        record.set("key", key)
        if let arguments {
            let values: [DBusValue] = arguments.map {
                switch $0 {
                case .string(let text): .variant(AgentRecordWriter.text(text))
                case .integer(let integer): .variant(.int64(Int64(integer)))
                case .unsignedInteger(let integer): .variant(.uint64(UInt64(integer)))
                case .double(let double): .variant(.double(double))
                }
            }
            record.set("arguments", raw: .array(element: .variant, values))
        }
        record.set("bundlePath", storedBundlePath)
        return record
    }

    /// The lookup in `record`; its `bundlePath` is kept as a ``BundleAtPath``, not opened.
    init(record: AgentRecordReader) throws(NotificationAgentError) {
        let key = try record.required("key", as: String.self)
        let arguments = try record.optional("arguments", as: [DBusValue].self).map { (values) throws(NotificationAgentError) in
            try values.enumerated().map { (index, value) throws(NotificationAgentError) -> Argument in
                switch value {
                case .string, .byteArray: return .string(try AgentRecordReader.text(value, path: "\(record.path).arguments[\(index)]"))
                case .int64(let integer): return .integer(Int(integer))
                case .uint64(let integer): return .unsignedInteger(UInt(integer))
                case .double(let double): return .double(double)
                default: throw .invalidArgument("\(record.path).arguments[\(index)] is a \(value.type.signature), not s, x, t or d")
                }
            }
        }
        let bundlePath = try record.optional("bundlePath", as: String.self)
        // The path is kept, not opened: the agent checks whether its caller may name one first.
        self.init(key: key, storedArguments: arguments, source: Self.source(bundlePath: bundlePath))
    }
}

extension DateComponents {
    private static var integerKeys: [(String, WritableKeyPath<DateComponents, Int?>, Calendar.Component)] { [
        ("era", \.era, .era), ("year", \.year, .year), ("month", \.month, .month), ("day", \.day, .day), ("hour", \.hour, .hour),
        ("minute", \.minute, .minute), ("second", \.second, .second), ("nanosecond", \.nanosecond, .nanosecond),
        ("weekday", \.weekday, .weekday), ("weekdayOrdinal", \.weekdayOrdinal, .weekdayOrdinal), ("quarter", \.quarter, .quarter),
        ("weekOfMonth", \.weekOfMonth, .weekOfMonth), ("weekOfYear", \.weekOfYear, .weekOfYear),
        ("yearForWeekOfYear", \.yearForWeekOfYear, .yearForWeekOfYear), ("dayOfYear", \.dayOfYear, .dayOfYear),
    ] }
    static let recordKeys: Set<String> = Set(integerKeys.map { $0.0 }).union(["isLeapMonth", "timeZone", "calendar"])

    /// The values each component may have in a record: those a date can have
    /// (``UNCalendarNotificationTrigger/componentRanges``), the ranges `add` checks. A record
    /// carries any `Int64`, and past those ranges Foundation's `Calendar` is no judge:
    /// `Int.max` is its mark of a component not set, so a year of `Int64.max` was read as no
    /// year at all (with month 1 and day 1, a trigger every 1 January), which no writer sends;
    /// a nanosecond of 9.2e18 makes a date in the year 293; a weekday ordinal of 6 makes it
    /// search for ever. A year stops at 100,000: its dates, about 3.1e12 seconds from 2001,
    /// stay within the 1e13 seconds every saved date is held to (`EngineState.farthestDate`),
    /// which convert to a `Duration` and a `timespec` without overflow.
    private static func range(of component: Calendar.Component) -> ClosedRange<Int>? {
        UNCalendarNotificationTrigger.componentRanges.first { $0.0 == component }?.1
    }
    private static let calendarKeys: Set<String> = ["identifier", "timeZone", "locale", "firstWeekday", "minimumDaysInFirstWeek"]

    /// The calendars a record can name, by the name `Calendar.Identifier` describes itself with
    /// (the name its `Codable` form uses too).
    private static let calendars: [String: Calendar.Identifier] = {
        let identifiers: [Calendar.Identifier] = [
            .gregorian, .buddhist, .chinese, .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem, .hebrew, .iso8601,
            .indian, .islamic, .islamicCivil, .japanese, .persian, .republicOfChina, .islamicTabular, .islamicUmmAlQura,
        ]
        return Dictionary(identifiers.map { (String(describing: $0), $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The components' record: each component set as `x`, `isLeapMonth` b, `timeZone` s (its
    /// identifier), `calendar` a{sv} (`identifier`, `timeZone`, `locale` s; `firstWeekday`,
    /// `minimumDaysInFirstWeek` x).
    var record: AgentRecordWriter {
        var record = AgentRecordWriter()
        for (key, path, _) in Self.integerKeys { record.set(key, integer: self[keyPath: path]) }
        record.set("isLeapMonth", isLeapMonth)
        record.set("timeZone", timeZone?.identifier)
        if let calendar {
            var fields = AgentRecordWriter()
            fields.set("identifier", String(describing: calendar.identifier))
            fields.set("timeZone", calendar.timeZone.identifier)
            fields.set("locale", calendar.locale?.identifier)
            fields.set("firstWeekday", integer: calendar.firstWeekday)
            fields.set("minimumDaysInFirstWeek", integer: calendar.minimumDaysInFirstWeek)
            record.set("calendar", record: fields)
        }
        return record
    }

    /// The components in `record`; a component out of its range (``range(of:)``), or a time
    /// zone or calendar this system does not know, is refused.
    init(record: AgentRecordReader) throws(NotificationAgentError) {
        self.init()
        for (key, path, component) in Self.integerKeys {
            guard let value = try record.integer(key) else { continue }
            guard let range = Self.range(of: component), range.contains(value) else {
                throw .invalidArgument("\(record.path).\(key) is \(value), out of the range a date can have")
            }
            self[keyPath: path] = value
        }
        isLeapMonth = try record.optional("isLeapMonth")
        if let name = try record.optional("timeZone", as: String.self) {
            guard let zone = TimeZone(identifier: name) else {
                throw .invalidArgument("\(record.path).timeZone is not a time zone: \(String(reflecting: name))")
            }
            timeZone = zone
        }
        if let fields = try record.record("calendar", keys: Self.calendarKeys) {
            let name = try fields.required("identifier", as: String.self)
            guard let identifier = Self.calendars[name] else {
                throw .invalidArgument("\(fields.path).identifier is not a calendar: \(String(reflecting: name))")
            }
            var calendar = Calendar(identifier: identifier)
            if let zoneName = try fields.optional("timeZone", as: String.self) {
                guard let zone = TimeZone(identifier: zoneName) else {
                    throw .invalidArgument("\(fields.path).timeZone is not a time zone: \(String(reflecting: zoneName))")
                }
                calendar.timeZone = zone
            }
            if let locale = try fields.optional("locale", as: String.self) { calendar.locale = Locale(identifier: locale) }
            if let weekday = try fields.integer("firstWeekday") {
                guard (1...7).contains(weekday) else { throw .invalidArgument("\(fields.path).firstWeekday is not 1 to 7") }
                calendar.firstWeekday = weekday
            }
            if let days = try fields.integer("minimumDaysInFirstWeek") {
                guard (1...7).contains(days) else { throw .invalidArgument("\(fields.path).minimumDaysInFirstWeek is not 1 to 7") }
                calendar.minimumDaysInFirstWeek = days
            }
            self.calendar = calendar
        }
    }
}
