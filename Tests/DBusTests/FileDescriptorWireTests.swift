@testable import DBus
import Foundation
import Testing

private let interface = "org.example.Files"

func filesSignal(_ body: [DBusValue], to destination: String? = nil) throws -> DBusMessage {
    try .signal(path: DBusObjectPath("/org/example/Files"), interface: interface, member: "Shared", body: body, destination: destination)
}

@Suite("Unix file descriptors: ownership and the wire")
struct FileDescriptorWireTests {
    @Test("a descriptor is closed exactly once; take and duplicate hand out ownership")
    func ownership() throws {
        let name = MemoryFile.uniqueName("ownership")
        let file = try MemoryFile.make(named: name, contents: [7])
        let copy = try file.duplicate()
        #expect(MemoryFile.openCount(named: name) == 2)
        let taken = try file.take()
        #expect(!file.isOpen)
        #expect(throws: DBusError.fileDescriptorUnavailable("it was taken or closed")) { try file.take() }
        file.close()
        #expect(MemoryFile.openCount(named: name) == 2)
        #expect(close(taken) == 0)
        #expect(close(copy) == 0)
        let owned = try DBusFileDescriptor(duplicating: try MemoryFile.make(named: name, contents: [8]).take())
        #expect(MemoryFile.openCount(named: name) == 2)
        owned.close()
        owned.close()
        #expect(MemoryFile.openCount(named: name) == 1)
    }

    @Test("h is marshalled as an index with the UNIX_FDS count, and read back by index")
    func wire() throws {
        let files = try (0..<2).map { try MemoryFile.make(named: MemoryFile.uniqueName("wire"), contents: [UInt8($0)]) }
        let message = try DBusMessage.signal(
            path: .root, interface: interface, member: "Shared",
            body: [.unixFileDescriptor(files[1]), .structure([.unixFileDescriptor(files[0]), .int32(5)])])
        let (bytes, descriptors) = try message.marshalWithDescriptors(serial: 3)
        #expect(descriptors == files.reversed())
        let parsed = try DBusMessage(wire: bytes, fileDescriptors: files)
        #expect(parsed.body == [.unixFileDescriptor(files[0]), .structure([.unixFileDescriptor(files[1]), .int32(5)])])
        #expect(throws: DBusError.malformed("file descriptor 0, and no descriptors came with the message")) {
            try DBusMessage(wire: bytes)
        }
        #expect(throws: DBusError.malformed("file descriptor 1 of 1 given")) {
            try DBusMessage(wire: bytes, fileDescriptors: [files[0]])
        }
    }

    /// A message with one descriptor and `indices` as `ah` values: a `u` array turned into an
    /// `h` array by its signature, so that the indices are whatever a peer might write.
    private func forged(indices: [UInt32]) throws -> (bytes: [UInt8], descriptor: DBusFileDescriptor) {
        let file = try MemoryFile.make(named: MemoryFile.uniqueName("forged"), contents: [])
        let message = try filesSignal([.unixFileDescriptor(file), .array(element: .uint32, indices.map(DBusValue.uint32))])
        var bytes = try message.marshal(serial: 1)
        let signature = Array("hau".utf8)
        let at = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 3, bytes.count)]) == signature })
        bytes[at + 2] = UInt8(ascii: "h")
        return (bytes, file)
    }

    @Test("a received index past the message's descriptors is a typed error")
    func badIndex() throws {
        let (bytes, file) = try forged(indices: [1])
        #expect(throws: DBusError.malformed("file descriptor 1 of a message that carries 1")) {
            try DBusMessage(wire: bytes, fileDescriptors: [file])
        }
    }

    @Test("more than 16 h values in one message is a typed error, written or read")
    func tooMany() throws {
        let files = try (0..<17).map { _ in try MemoryFile.make(named: MemoryFile.uniqueName("too-many"), contents: []) }
        #expect(throws: DBusError.tooManyFileDescriptors(limit: 16)) {
            try filesSignal(files.map(DBusValue.unixFileDescriptor)).marshal(serial: 1)
        }
        #expect(throws: DBusError.tooManyFileDescriptors(limit: 16)) {
            try DBusMessage(wire: forged(indices: Array(repeating: 0, count: 16)).bytes, fileDescriptors: [files[0]])
        }
    }

    @Test("a taken descriptor cannot be sent")
    func takenDescriptor() throws {
        let file = try MemoryFile.make(named: MemoryFile.uniqueName("taken"), contents: [])
        #expect(close(try file.take()) == 0)
        #expect(throws: DBusError.fileDescriptorUnavailable("it was taken or closed")) {
            try filesSignal([.unixFileDescriptor(file)]).marshal(serial: 1)
        }
    }
}
