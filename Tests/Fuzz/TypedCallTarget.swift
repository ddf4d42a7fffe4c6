import DBus
import FreedesktopNotifications
import UserNotifications

extension FuzzTarget {
    /// The generated readers of calls and signals (`dbus/*.xml`, Plugins/DBusInterfaces): each
    /// input is read as a message (`DBusMessage(wire:)`), and its member and body go to the
    /// `Call` reader of every interface the project serves or follows that has that member,
    /// and to the signal readers of the signals it follows. A body that a reader takes must make
    /// the same values again when written back, and be read again from them: a reader that
    /// takes what its writer cannot make, or the reverse, is a finding.
    static let typedCalls = FuzzTarget(
        name: "typed-calls",
        seeds: typedCallSeeds,
        tokens: [
            [0], [0xFF, 0xFF, 0xFF, 0xFF], Array("sa{sv}".utf8), Array("ssa{sv}".utf8), Array("saa{sv}".utf8), Array("a(sa{sv})".utf8), Array("sav".utf8), Array("ssu".utf8),
            Array("Connect".utf8), Array("AddRequests".utf8), Array("ActivateAction".utf8), Array("ActionInvoked".utf8),
            Array("PropertiesChanged".utf8), Array("h".utf8), Array("v".utf8), [0xC3, 0x28],
        ],
        nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8)],
        run: { bytes throws(FuzzFinding) in
            guard let message = try? DBusMessage(wire: bytes, fileDescriptors: typedCallDescriptors), let member = message.member else {
                return .refused
            }
            let body = message.body
            var taken: [Bool] = []
            /// Whether a reader took the body; throws when its values do not read back.
            func check(_ name: String, _ values: [DBusValue]?, again: ([DBusValue]) throws(DBusError) -> [DBusValue]) throws(FuzzFinding) -> Bool {
                guard let values else { return false }
                let reread: [DBusValue]
                do {
                    reread = try again(values)
                } catch {
                    throw FuzzFinding(description: "\(name) \(member): its own values do not read back: \(error)")
                }
                // Doubles by bit pattern: a NaN is never `==` to itself.
                guard reread.count == values.count, zip(reread, values).allSatisfy({ $0.isSame(as: $1) }) else {
                    throw FuzzFinding(description: "\(name) \(member): the values change when read back")
                }
                return true
            }
            if let method = Agent1Spec.Method(rawValue: member) {
                taken.append(try check("Agent1", (try? Agent1Spec.Call(method, body))?.values) { values throws(DBusError) in try Agent1Spec.Call(method, values).values })
            }
            if let method = AgentClient1Spec.Method(rawValue: member) {
                taken.append(try check("AgentClient1", (try? AgentClient1Spec.Call(method, body))?.values) { values throws(DBusError) in
                    try AgentClient1Spec.Call(method, values).values
                })
            }
            if let method = AgentPush1Spec.Method(rawValue: member) {
                taken.append(try check("AgentPush1", (try? AgentPush1Spec.Call(method, body))?.values) { values throws(DBusError) in
                    try AgentPush1Spec.Call(method, values).values
                })
            }
            if let method = ApplicationSpec.Method(rawValue: member) {
                taken.append(try check("Application", (try? ApplicationSpec.Call(method, body))?.values) { values throws(DBusError) in
                    try ApplicationSpec.Call(method, values).values
                })
            }
            if let method = Connector2Spec.Method(rawValue: member) {
                taken.append(try check("Connector2", (try? Connector2Spec.Call(method, body))?.values) { values throws(DBusError) in
                    try Connector2Spec.Call(method, values).values
                })
            }
            if member == PortalNotificationSpec.Signal.actionInvoked.rawValue {
                taken.append(try check("portal ActionInvoked", (try? PortalNotificationSpec.ActionInvokedSignal(body))?.values) { values throws(DBusError) in
                    try PortalNotificationSpec.ActionInvokedSignal(values).values
                })
            }
            if member == Agent1Spec.Signal.response.rawValue {
                taken.append(try check("Agent1 Response", (try? Agent1Spec.ResponseSignal(body))?.values) { values throws(DBusError) in
                    try Agent1Spec.ResponseSignal(values).values
                })
            }
            if member == PropertiesSpec.Signal.propertiesChanged.rawValue {
                taken.append(try check("PropertiesChanged", (try? PropertiesSpec.PropertiesChangedSignal(body))?.values) { values throws(DBusError) in
                    try PropertiesSpec.PropertiesChangedSignal(values).values
                })
            }
            if member == GeoClueClientSpec.Signal.locationUpdated.rawValue {
                taken.append(try check("LocationUpdated", (try? GeoClueClientSpec.LocationUpdatedSignal(body))?.values) { values throws(DBusError) in
                    try GeoClueClientSpec.LocationUpdatedSignal(values).values
                })
            }
            return taken.contains(true) ? .accepted : .refused
        }
    )

    /// Four descriptors of `/dev/null`, for the `h` values of `AddFiles`.
    private static let typedCallDescriptors: [DBusFileDescriptor] = (0..<4).map { _ in
        DBusFileDescriptor(taking: open("/dev/null", O_RDONLY | O_CLOEXEC))
    }

    /// One call or signal of each reader, marshalled by libdbus, each taken by its reader.
    private static var typedCallSeeds: [[UInt8]] {
        let app = "org.example.App"
        let agent = "org.desktopnotifications.Agent"
        func call(_ interface: String, _ member: String, _ body: [DBusValue]) -> [UInt8] {
            LibDBusMarshal.marshal(.call(destination: agent, path: "/org/desktopnotifications/Agent", interface: interface, member: member), body: body, serial: 3) ?? []
        }
        func signal(_ interface: String, _ member: String, _ body: [DBusValue]) -> [UInt8] {
            LibDBusMarshal.marshal(.signal(sender: ":1.7", path: "/org/example", interface: interface, member: member), body: body, serial: 4) ?? []
        }
        return [
            call(Agent1Spec.name, "Connect", Agent1Spec.ConnectArguments(appID: app, identity: ["name": .string("App"), "icon": .string("app")]).values),
            call(Agent1Spec.name, "AddRequests", Agent1Spec.AddRequestsArguments(appID: app, requests: [[:], ["identifier": .string("a")]]).values),
            call(Agent1Spec.name, "RemovePendingRequests", Agent1Spec.RemovePendingRequestsArguments(appID: app, identifiers: ["x"], all: false).values),
            call(Agent1Spec.name, "Status", []),
            call(AgentClient1Spec.name, "WillPresent", AgentClient1Spec.WillPresentArguments(notification: ["date": .double(0)]).values),
            call(AgentPush1Spec.name, "Register", AgentPush1Spec.RegisterArguments(appID: app, options: ["distributor": .string("d")]).values),
            call(ApplicationSpec.name, "ActivateAction", ApplicationSpec.ActivateActionArguments(
                actionName: "notification-response", parameter: [.string("id")], platformData: ["activation-token": .string("t")]).values),
            call(ApplicationSpec.name, "Open", ApplicationSpec.OpenArguments(uris: ["https://example.org"], platformData: [:]).values),
            call(Connector2Spec.name, "Message", Connector2Spec.MessageArguments(args: ["token": .string("t"), "message": .byteArray([1, 2])]).values),
            signal(PortalNotificationSpec.name, "ActionInvoked", PortalNotificationSpec.ActionInvokedSignal(
                id: "n", action: "default", parameter: [.variantDictionary([("activation-token", .string("t"))]), .string("reply")]).values),
            signal(Agent1Spec.name, "Response", Agent1Spec.ResponseSignal(appID: app, responseID: "r", response: ["actionIdentifier": .string("a")]).values),
            signal(PropertiesSpec.name, "PropertiesChanged", PropertiesSpec.PropertiesChangedSignal(
                interfaceName: GeoClueClientSpec.name, changedProperties: ["Active": .boolean(true)], invalidatedProperties: []).values),
        ]
    }
}
