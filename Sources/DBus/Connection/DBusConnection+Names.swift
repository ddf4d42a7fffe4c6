/// The answer to `RequestName`.
public enum DBusRequestNameReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
}

/// Flags of `RequestName`.
public struct DBusRequestNameFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let allowReplacement = DBusRequestNameFlags(rawValue: 0x1)
    public static let replaceExisting = DBusRequestNameFlags(rawValue: 0x2)
    public static let doNotQueue = DBusRequestNameFlags(rawValue: 0x4)
}

extension DBusConnection {
    /// Asks the bus for a well-known name.
    public func requestName(_ name: String, flags: DBusRequestNameFlags = [.doNotQueue]) async throws -> DBusRequestNameReply {
        guard DBusNames.isValidBusName(name), !name.hasPrefix(":") else { throw DBusError.invalidBusName(name) }
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        guard let code = try reply.arguments("u").first?.uint32Value, let answer = DBusRequestNameReply(rawValue: code) else {
            throw DBusError.malformed("RequestName reply")
        }
        return answer
    }

    /// Gives a well-known name back to the bus.
    public func releaseName(_ name: String) async throws {
        guard DBusNames.isValidBusName(name) else { throw DBusError.invalidBusName(name) }
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// The unique name that owns `name` now, or `nil` when nobody does.
    public func nameOwner(of name: String) async throws -> String? {
        guard DBusNames.isValidBusName(name) else { throw DBusError.invalidBusName(name) }
        do {
            return try await callBus("GetNameOwner", [.string(name)]).arguments("s").first?.stringValue
        } catch DBusError.remote(name: "org.freedesktop.DBus.Error.NameHasNoOwner", _) {
            return nil
        }
    }

    /// The names the bus can start on demand (from its service directories).
    public func listActivatableNames() async throws -> [String] {
        try await callBus("ListActivatableNames").arguments("as").first?.stringArrayValue ?? []
    }

    /// The names currently on the bus.
    public func listNames() async throws -> [String] {
        try await callBus("ListNames").arguments("as").first?.stringArrayValue ?? []
    }

    /// Follows the owner of `name`: the stream starts with nothing and carries each change as
    /// ``DBusSignalEvent/ownerChanged(name:oldOwner:newOwner:)``; the current owner is
    /// ``DBusSignalSubscription/initialOwner``.
    public func watchNameOwner(_ name: String) async throws -> DBusSignalSubscription {
        try await subscribe(to: [], senderMustOwn: name)
    }
}

extension DBusConnection {
    /// A handle for an exported object; ``unexport()`` removes it.
    public struct Export: Sendable {
        let core: ConnectionCore
        /// The object's path.
        public let path: DBusObjectPath

        /// Stops serving the object; later calls get `UnknownMethod`.
        public func unexport() {
            let core = self.core
            let path = self.path.rawValue
            core.perform { core.exports.removeValue(forKey: path) }
        }
    }

    /// Serves `object`: method calls to its path reach its interfaces' handlers, and
    /// `Introspect` describes it. Replaces an object already exported at the same path.
    @discardableResult
    public func export(_ object: DBusExportedObject) -> Export {
        let core = self.core
        core.perform { core.exports[object.path.rawValue] = object }
        return Export(core: core, path: object.path)
    }
}
