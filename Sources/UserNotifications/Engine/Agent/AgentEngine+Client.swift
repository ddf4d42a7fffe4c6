import DBus
import DesktopNotificationsSupport

extension AgentEngine {
    /// Serves `org.desktopnotifications.AgentClient1` at ``AgentInterface/clientPath`` to the
    /// agent's current owner alone (a call from anyone else is refused): `WillPresent` gets the
    /// host's presentation options (bounded by the presentation deadline),
    /// `ServiceExtension` the content the host's service extension gives a pushed request
    /// (bounded by the extension's deadline), as a push the center takes itself gets, and
    /// `ContentExtensionShown` and `ContentExtensionResponse` reach the content extension of the
    /// notification's category, as they do for a notification the center posts itself.
    func serveClient() throws {
        let interface = try DBusExportedInterface(
            name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML
        ) { [weak self] invocation in
            guard let self else { return invocation.fail(name: AgentErrorName.prefix + "Failed", message: "the center is gone") }
            serveClientCall(invocation)
        }
        keep(export: connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [interface])))
    }

    private func serveClientCall(_ invocation: DBusMethodInvocation) {
        let message = invocation.message
        let owner = ledger.withLock { $0.agentOwner }
        guard let sender = message.sender, sender == owner else {
            return fail(invocation, NotificationAgentError.notAllowed("\(message.member ?? "") is the agent's to call"))
        }
        let call: AgentClient1Spec.Call
        do throws(DBusCallRefusal) {
            call = try AgentClient1Spec.Call(message)
        } catch {
            return fail(invocation, error)
        }
        switch call {
        case .willPresent(let arguments): willPresent(invocation, arguments.notification)
        case .serviceExtension(let arguments): runServiceExtension(invocation, arguments.request)
        case .contentExtensionShown(let arguments): contentExtensionShown(invocation, arguments.notification)
        case .contentExtensionResponse(let arguments): contentExtensionResponse(invocation, arguments.response)
        }
    }

    /// Tells the content extension of the notification's category that it is shown, and
    /// answers once it was told.
    private func contentExtensionShown(_ invocation: DBusMethodInvocation, _ record: AgentPayload.Record) {
        let notification: UNNotification
        do {
            notification = try AgentPayload.notification(from: record)
        } catch {
            return fail(invocation, error)
        }
        let host = host.host
        Task {
            await host?.contentExtensionShown(notification)
            invocation.reply()
        }
    }

    /// Answers the content extension's option for a response
    /// (``UNNotificationContentExtensionResponseOption``'s raw value):
    /// ``UNNotificationContentExtensionResponseOption/dismissAndForwardAction`` when the
    /// category has no extension (any more), so that the agent hands the response on as it
    /// would without one.
    private func contentExtensionResponse(_ invocation: DBusMethodInvocation, _ record: AgentPayload.Record) {
        let response: UNNotificationResponse
        do {
            response = try AgentPayload.response(from: record, activationToken: nil)
        } catch {
            return fail(invocation, error)
        }
        let host = host.host
        Task {
            let option = await host?.contentExtensionAnswer(for: response) ?? .dismissAndForwardAction
            invocation.reply(AgentClient1Spec.ContentExtensionResponseReply(option: UInt32(option.rawValue)).values)
        }
    }

    private func willPresent(_ invocation: DBusMethodInvocation, _ record: AgentPayload.Record) {
        let notification: UNNotification
        do {
            notification = try AgentPayload.notification(from: record)
        } catch {
            return fail(invocation, error)
        }
        guard let host = host.host else {
            return reply(invocation, UNUserNotificationCenter.defaultPresentationOptions)
        }
        if let options = host.presentationOptionsWithoutAsking { return reply(invocation, options) }
        host.askPresentationOptions(for: notification) { [self] options in reply(invocation, options) }
    }

    /// Runs the host's service extension on a pushed request, as
    /// ``UNUserNotificationCenter/deliverRemoteNotification(_:collapseIdentifier:)`` does, and
    /// answers its content; a request without a push trigger is refused, and content over the
    /// argument limit (or with user info that is not property lists) fails the call, so the
    /// agent shows the push as sent.
    private func runServiceExtension(_ invocation: DBusMethodInvocation, _ record: AgentPayload.Record) {
        let request: UNNotificationRequest
        do {
            request = try AgentPayload.request(from: record)
            guard request.trigger is UNPushNotificationTrigger else {
                throw NotificationAgentError.invalidArgument("ServiceExtension takes a pushed request")
            }
        } catch {
            return fail(invocation, error)
        }
        let host = host.host
        Task { [self] in
            let content = await host?.serviceExtensionContent(for: request) ?? request.content
            do {
                invocation.reply(AgentClient1Spec.ServiceExtensionReply(content: try AgentPayload.encode(content)).values)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the service extension's content cannot go back to the agent; it shows the push as sent",
                    metadata: ["identifier": "\(request.identifier)", "error": SubsystemLog.describe(error)])
                fail(invocation, error)
            }
        }
    }

    private func reply(_ invocation: DBusMethodInvocation, _ options: UNNotificationPresentationOptions) {
        invocation.reply(AgentClient1Spec.WillPresentReply(options: UInt32(clamping: options.rawValue)).values)
    }

    private func fail(_ invocation: DBusMethodInvocation, _ error: any Error) {
        let (name, text) = AgentErrorName.encode(error)
        invocation.fail(name: name, message: text)
    }
}
