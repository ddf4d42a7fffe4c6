import CDBus
@testable import DBus
import Foundation
import Testing
import UserNotificationsTesting

private let interface = "org.example.Files"

/// A bus that listens on TCP only, where no connection can pass descriptors. A TCP connection
/// cannot authenticate with EXTERNAL, so the bus takes ANONYMOUS.
private let tcpBusConfiguration = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>tcp:host=127.0.0.1,port=0</listen>
      <auth>ANONYMOUS</auth>
      <allow_anonymous/>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """

@Suite("Unix file descriptors: what libdbus holds, and where they cannot go")
struct FileDescriptorLimitTests {
    @Test("a received message's descriptors are duplicated at most 16 times, and those close with the error")
    func receivedTooMany() throws {
        let name = MemoryFile.uniqueName("received-too-many")
        do {
            let files = try (0..<17).map { _ in try MemoryFile.make(named: name, contents: []) }
            let message = try filesSignal(files.map(DBusValue.unixFileDescriptor))
            // libdbus builds the message unchecked: as a peer's message with 17 descriptors.
            let received = try message.makeLibdbusMessage(serial: 1)
            defer { dbus_message_unref(received) }
            #expect(MemoryFile.openCount(named: name) == 34)
            #expect(throws: DBusError.tooManyFileDescriptors(limit: 16)) { try ReceivedDescriptors(received) }
            #expect(MemoryFile.openCount(named: name) == 34)
        }
        #expect(MemoryFile.openCount(named: name) == 0)
    }

    @Test("over TCP, sending a descriptor fails with fileDescriptorsNotSupported and nothing stays open")
    func tcpCannotPassDescriptors() async throws {
        let tcpBus = try await TestBus(configurationText: tcpBusConfiguration)
        #expect(tcpBus.address.hasPrefix("tcp:"))
        let name = MemoryFile.uniqueName("tcp")
        do {
            let server = try await DBusConnection.connect(to: tcpBus.bus)
            #expect(!server.canSendFileDescriptors)
            try exportEcho(on: server)
            let client = try await DBusConnection.connect(to: tcpBus.bus)
            let file = try MemoryFile.make(named: name, contents: [1])
            #expect(throws: DBusError.fileDescriptorsNotSupported) {
                try client.send(filesSignal([.unixFileDescriptor(file)], to: server.uniqueName))
            }
            await #expect(throws: DBusError.fileDescriptorsNotSupported) {
                try await client.call(echoCall(server.uniqueName, "Echo", [.unixFileDescriptor(file)]))
            }
            // A reply with descriptors it cannot send becomes an error reply naming why.
            let replying = try DBusExportedInterface(name: interface, introspectionXML: "") { invocation in
                invocation.reply([.unixFileDescriptor(file)])
            }
            server.export(DBusExportedObject(path: try DBusObjectPath("/org/example/Files"), interfaces: [replying]))
            let call = try DBusMessage.methodCall(
                destination: server.uniqueName, path: DBusObjectPath("/org/example/Files"), interface: interface, member: "Get")
            await #expect(throws: DBusError.remote(name: "org.freedesktop.DBus.Error.Failed", message: DBusError.fileDescriptorsNotSupported.description)) {
                try await client.call(call)
            }
            #expect(try await client.call(echoCall(server.uniqueName, "Echo", [.int32(1)])).body == [.int32(1)])
            await closeAll(client, server)
        }
        #expect(MemoryFile.openCount(named: name) == 0)
    }
}
