import DBus

extension AgentEngine {
    /// Serves `org.desktopnotifications.AgentClient1` at ``AgentInterface/clientPath``:
    /// `WillPresent` from the agent's current owner gets the host's presentation options
    /// (bounded by the presentation deadline); a call from anyone else is refused.
    func serveClient() throws {
        let interface = try DBusExportedInterface(
            name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML
        ) { [weak self] invocation in
            guard let self else { return invocation.fail(name: AgentErrorName.prefix + "Failed", message: "the center is gone") }
            willPresent(invocation)
        }
        keep(export: connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [interface])))
    }

    private func willPresent(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        guard message.member == "WillPresent" else {
            return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "\(AgentInterface.clientName) has no method \(message.member ?? "")")
        }
        let owner = ledger.withLock { $0.agentOwner }
        guard let sender = message.sender, sender == owner else {
            return fail(invocation, NotificationAgentError.notAllowed("WillPresent is the agent's to call"))
        }
        let notification: UNNotification
        do {
            guard message.bodySignature == "s", let json = message.body[0].stringValue else {
                throw NotificationAgentError.invalidArgument("WillPresent takes (s), not (\(message.bodySignature))")
            }
            notification = try AgentPayload.notification(from: json)
        } catch {
            return fail(invocation, error)
        }
        guard let host = host.host else {
            return reply(invocation, UNUserNotificationCenter.defaultPresentationOptions)
        }
        if let options = host.presentationOptionsWithoutAsking { return reply(invocation, options) }
        host.askPresentationOptions(for: notification) { [self] options in reply(invocation, options) }
    }

    private func reply(_ invocation: DBusMethodInvocation, _ options: UNNotificationPresentationOptions) {
        invocation.reply([.uint32(UInt32(clamping: options.rawValue))])
    }

    private func fail(_ invocation: DBusMethodInvocation, _ error: any Error) {
        let (name, text) = AgentErrorName.encode(error)
        invocation.fail(name: name, message: text)
    }
}
