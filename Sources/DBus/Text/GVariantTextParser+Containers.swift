extension GVariantTextParser {
    /// The rest of `[...]` after its `[`: an array, or a dictionary written `[{k, v}, ...]`.
    mutating func array(expected: DBusType?, depth: NestingDepth) throws(GVariantTextError) -> DBusValue {
        var element: DBusType?
        switch expected {
        case nil: break
        case .array(let inner)?: element = inner
        case .dictionary?: return try dictionaryBody(expected: expected, close: "]", depth: depth)
        case let other?: throw fail("an array where \(other.signature) is required")
        }
        var elements: [DBusValue] = []
        if !take("]") {
            repeat {
                let item = try value(expected: element, depth: depth)
                element = element ?? item.type
                elements.append(item)
            } while take(",")
            try expect("]")
        }
        guard let element else { throw fail("an empty array needs a type, as in @as []") }
        if element == .byte {
            return .byteArray(elements.compactMap(\.byteValue))
        }
        return .array(element: element, elements)
    }

    /// The rest of `(...)` after its `(`.
    mutating func tuple(expected: DBusType?, depth: NestingDepth) throws(GVariantTextError) -> DBusValue {
        var fieldTypes: [DBusType]?
        if let expected {
            guard case .structure(let types) = expected else { throw fail("a tuple where \(expected.signature) is required") }
            fieldTypes = types
        }
        var fields: [DBusValue] = []
        while !take(")") {
            let type = fieldTypes.flatMap { fields.count < $0.count ? $0[fields.count] : nil }
            if fieldTypes != nil && type == nil { throw fail("more fields than the tuple's type has") }
            fields.append(try value(expected: type, depth: depth))
            if !take(",") {
                try expect(")")
                break
            }
        }
        guard !fields.isEmpty else { throw fail("D-Bus has no empty structure") }
        guard fieldTypes.map({ $0.count == fields.count }) ?? true else { throw fail("fewer fields than the tuple's type has") }
        return .structure(fields)
    }

    /// The entries of `{k: v, ...}` (closed by `}`) or `[{k, v}, ...]` (closed by `]`).
    mutating func dictionaryBody(expected: DBusType?, close: Character, depth: NestingDepth) throws(GVariantTextError) -> DBusValue {
        var keyType: DBusType?
        var valueType: DBusType?
        if let expected {
            guard case .dictionary(let key, let value) = expected else {
                throw fail("a dictionary where \(expected.signature) is required")
            }
            (keyType, valueType) = (key, value)
        }
        let isEntryList = close == "]"
        var entries: [DBusDictionaryEntry] = []
        if !take(close) {
            repeat {
                if isEntryList { try expect("{") }
                let key = try value(expected: keyType, depth: depth)
                try expect(isEntryList ? "," : ":")
                let item = try value(expected: valueType, depth: depth)
                if isEntryList { try expect("}") }
                keyType = keyType ?? key.type
                valueType = valueType ?? item.type
                entries.append(DBusDictionaryEntry(key, item))
            } while take(",")
            try expect(close)
        }
        guard let keyType, let valueType else { throw fail("an empty dictionary needs a type, as in @a{sv} {}") }
        guard keyType.isBasic else { throw fail("a dictionary key must be a basic type, not \(keyType.signature)") }
        return .dictionary(key: keyType, value: valueType, entries)
    }
}
