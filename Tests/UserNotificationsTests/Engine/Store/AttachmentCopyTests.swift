import Foundation
import Testing
@testable import UserNotifications
#if canImport(Glibc)
import Glibc
#endif

/// The store copies what a request names without trusting the path: a FIFO, a link or a folder
/// is refused before anything is read or changed, and a copy is a new 0600 file.
@Suite("Attachment copies: descriptors, never links, FIFOs or folders")
struct AttachmentCopyTests {
    let scratch: URL
    let store: AttachmentStore

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("attachment-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        store = AttachmentStore(root: scratch.appendingPathComponent("store"), quota: 1 << 20)
    }

    /// An attachment as the agent decodes it from a request: nothing checked the file.
    func attachment(_ url: URL) -> UNNotificationAttachment {
        UNNotificationAttachment(identifier: "a", url: url, type: "public.png")
    }

    func storedNames() -> [String] {
        let walker = FileManager.default.enumerator(atPath: store.root.path)
        return (walker?.allObjects as? [String]) ?? []
    }

    /// Runs `work` on a thread of its own and gives its result, or nil after `limit`: a copy
    /// that blocks in `open` fails the test instead of hanging the run.
    func within<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { continuation in
            let once = OnceBox(continuation)
            Thread.detachNewThread { once.resume(work()) }
            Task {
                try? await Task.sleep(for: limit)
                once.resume(nil)
            }
        }
    }

    @Test("a FIFO is refused at once, not waited on")
    func fifo() async throws {
        let fifo = scratch.appendingPathComponent("pipe.png")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let store = self.store
        let attachment = attachment(fifo)
        let outcome = await within(.seconds(5)) { () -> UNError.Code? in
            do {
                _ = try store.store([attachment])
                return nil
            } catch let error as UNError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(outcome == .some(.attachmentInvalidURL))
        #expect(storedNames().isEmpty)
    }

    @Test("a link to a file or a folder outside is refused, and its target's mode is left alone")
    func links() throws {
        let target = scratch.appendingPathComponent("outside.png")
        try Data(repeating: 7, count: 100).write(to: target)
        #expect(chmod(target.path, 0o644) == 0)
        let folder = scratch.appendingPathComponent("outside-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(chmod(folder.path, 0o755) == 0)
        for (name, destination) in [("file.png", target), ("folder.png", folder)] {
            let link = scratch.appendingPathComponent(name)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: destination)
            #expect(throws: UNError.self) { try store.store([attachment(link)]) }
        }
        let fileMode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o644)
        #expect(folderMode == 0o755)
        #expect(storedNames().allSatisfy { !$0.hasSuffix(".png") })
    }

    @Test("a folder is refused whole: nothing of it is copied, whatever it holds")
    func folder() throws {
        let folder = scratch.appendingPathComponent("big.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(repeating: 1, count: 4096).write(to: folder.appendingPathComponent("inside"))
        let error = #expect(throws: UNError.self) { try store.store([attachment(folder)]) }
        #expect(error?.code == .attachmentInvalidURL)
        #expect(!storedNames().contains { $0.hasSuffix("inside") })
    }

    @Test("from descriptors: the bytes the descriptor holds, into a new 0600 file, within the quota")
    func descriptors() throws {
        let source = scratch.appendingPathComponent("source.png")
        try Data(repeating: 9, count: 3000).write(to: source)
        let descriptor = open(source.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        // The path the request names is not what is read: only the descriptor is.
        let stored = try store.store([attachment(URL(fileURLWithPath: "/nonexistent/x.png"))], from: [descriptor])
        let copy = try #require(stored.attachments.first?.url)
        #expect(try Data(contentsOf: copy) == Data(repeating: 9, count: 3000))
        #expect(try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? Int == 0o600)
        let small = AttachmentStore(root: scratch.appendingPathComponent("small"), quota: 100)
        #expect(throws: UNError.self) { try small.store([attachment(source)], from: [descriptor]) }
        let pipe = scratch.appendingPathComponent("pipe2")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let fifo = open(pipe.path, O_RDONLY | O_NONBLOCK)
        defer { close(fifo) }
        #expect(throws: UNError.self) { try store.store([attachment(pipe)], from: [fifo]) }
    }
}

/// Resumes a continuation once, whichever of two racers comes first.
private final class OnceBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T?, Never>?

    init(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation = continuation
    }

    func resume(_ value: T?) {
        lock.lock()
        let taken = continuation
        continuation = nil
        lock.unlock()
        taken?.resume(returning: value)
    }
}
