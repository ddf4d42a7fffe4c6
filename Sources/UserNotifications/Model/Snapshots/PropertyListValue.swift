/// A `userInfo` value in storable form: the property-list types, which JSON can also carry.
indirect enum PropertyListValue: Codable, Hashable, Sendable {
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// How deep dictionaries and arrays may nest in a stored `userInfo`, the `userInfo`
    /// dictionary itself the first level: as deep as a `userInfo` travels to the agent (D-Bus
    /// nests arrays at most 32 deep, and the request's record and its content's take two), so
    /// that every engine takes the same ones; a state file holding it nests about 100 deep,
    /// well within what is read again (``OutsideJSON/maximumDepth``).
    static let maximumDepth = 30

    /// Converts a whole `userInfo` dictionary, naming the first value that cannot be stored.
    static func dictionary(
        from userInfo: [AnyHashable: Any],
        keyPath: String = "userInfo"
    ) throws(UserInfoStorageError) -> [String: PropertyListValue] {
        try dictionary(from: userInfo, keyPath: keyPath, depth: 1)
    }

    private static func dictionary(
        from userInfo: [AnyHashable: Any], keyPath: String, depth: Int
    ) throws(UserInfoStorageError) -> [String: PropertyListValue] {
        var converted: [String: PropertyListValue] = [:]
        for (key, value) in userInfo {
            guard let key = key.base as? String else {
                throw .keyNotString(keyPath: keyPath, key: String(describing: key.base))
            }
            converted[key] = try PropertyListValue(value, keyPath: "\(keyPath).\(key)", depth: depth)
        }
        return converted
    }

    /// `value` in storable form; `depth` is the nesting of the container that holds it.
    ///
    /// Foundation numbers are classified before Swift types: on Linux a Swift `Int` also casts
    /// to `NSNumber`, and an `NSNumber` may cast to `Bool` or `Int` whatever it holds.
    private init(_ value: Any, keyPath: String, depth: Int) throws(UserInfoStorageError) {
        switch value {
        case let number as NSNumber where type(of: value) is NSNumber.Type:
            self = try Self(number: number, keyPath: keyPath)
        case let bool as Bool:
            self = .bool(bool)
        case let string as String:
            self = .string(string)
        case let integer as any BinaryInteger:
            guard let exact = Int(exactly: integer) else {
                throw .valueNotStorable(keyPath: keyPath, typeName: "\(type(of: value)) too large for Int")
            }
            self = .integer(exact)
        case let floatingPoint as any BinaryFloatingPoint:
            self = try Self(finite: Double(floatingPoint), keyPath: keyPath)
        case let date as Date:
            self = .date(date)
        case let data as Data:
            self = .data(data)
        case let dictionary as [AnyHashable: Any]:
            try Self.checkNesting(below: depth, keyPath: keyPath)
            self = .dictionary(try Self.dictionary(from: dictionary, keyPath: keyPath, depth: depth + 1))
        case let array as [Any]:
            try Self.checkNesting(below: depth, keyPath: keyPath)
            self = .array(try array.enumerated().map { (index, element) throws(UserInfoStorageError) in
                try PropertyListValue(element, keyPath: "\(keyPath)[\(index)]", depth: depth + 1)
            })
        default:
            throw .valueNotStorable(keyPath: keyPath, typeName: String(describing: type(of: value)))
        }
    }

    /// Refuses a dictionary or array held at `depth` when it would be one level past
    /// ``maximumDepth``.
    private static func checkNesting(below depth: Int, keyPath: String) throws(UserInfoStorageError) {
        guard depth < maximumDepth else {
            throw .valueNotStorable(keyPath: keyPath, typeName: "dictionary or array nested more than \(maximumDepth) deep")
        }
    }

    private init(number: NSNumber, keyPath: String) throws(UserInfoStorageError) {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c") where number.int8Value == 0 || number.int8Value == 1, UInt8(ascii: "B"):
            self = .bool(number.boolValue)
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            self = try Self(finite: number.doubleValue, keyPath: keyPath)
        default:
            self = .integer(number.intValue)
        }
    }

    private init(finite double: Double, keyPath: String) throws(UserInfoStorageError) {
        guard double.isFinite else {
            throw .valueNotStorable(keyPath: keyPath, typeName: "non-finite number \(double)")
        }
        self = .double(double)
    }

    /// The value as the Swift type an app reads back from `userInfo`.
    var anyValue: Any {
        switch self {
        case .string(let string): string
        case .integer(let integer): integer
        case .double(let double): double
        case .bool(let bool): bool
        case .date(let date): date
        case .data(let data): data
        case .array(let array): array.map(\.anyValue)
        case .dictionary(let dictionary): dictionary.mapValues(\.anyValue)
        }
    }
}
