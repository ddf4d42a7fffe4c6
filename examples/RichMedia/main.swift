// RichMedia: seed 000's rich notifications on Linux: a notification with an image
// attachment, and a remote payload with `mutable-content: 1` that a service extension
// changes before it is shown (the seed appends a name; a real one would decrypt or download).
import ExampleSupport
import Foundation
import UserNotifications

/// Seed 000's service extension, as written there (the class name kept).
final class NotificationService: UNNotificationServiceExtension {
    var contentHandler: ((UNNotificationContent) -> Void)?
    var bestAttemptContent: UNMutableNotificationContent?

    override func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.contentHandler = contentHandler
        bestAttemptContent = (request.content.mutableCopy() as? UNMutableNotificationContent)
        if let bestAttemptContent = bestAttemptContent {
            bestAttemptContent.body = "\(bestAttemptContent.body), Andrew"
            contentHandler(bestAttemptContent)
        }
    }

    override func serviceExtensionTimeWillExpire() {
        if let contentHandler = contentHandler, let bestAttemptContent = bestAttemptContent {
            contentHandler(bestAttemptContent)
        }
    }
}

/// A small PNG (2×2 orange pixels) written to a temporary file, standing in for a photo.
func writeSampleImage() throws -> URL {
    let bytes: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A,
        0x73, 0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xDF, 0xC3, 0x00,
        0x44, 0x0C, 0x10, 0x0A, 0x00, 0x2F, 0x3E, 0x06, 0x2D, 0x98, 0xA3, 0x74, 0x29, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("richmedia-\(getpid()).png")
    try Data(bytes).write(to: url)
    return url
}

@MainActor
func run() async throws {
    _ = try await DemoPresenter.prepare(appID: "org.desktopnotifications.RichMedia", name: "Rich Media")
    let center = UNUserNotificationCenter.current()
    let service = NotificationService()
    center.setServiceExtension(service)

    let image = try writeSampleImage()
    defer { try? FileManager.default.removeItem(at: image) }
    let content = UNMutableNotificationContent()
    content.title = "Image Notification"
    content.body = "Show me an image!"
    content.attachments = [try UNNotificationAttachment(identifier: "imageAttachment", url: image, options: nil)]
    try await center.add(UNNotificationRequest(identifier: "image", content: content, trigger: nil))
    print("image notification: \(content.attachments.count) attachment, shown with image-path")

    let payload = #"{"aps":{"alert":{"title":"Greetings","body":"Long time no see"},"mutable-content":1}}"#
    let request = try await center.deliverRemoteNotification(try RemoteNotificationPayload(json: Data(payload.utf8)))
    print("remote notification changed by the service extension: \(request?.content.body ?? "-")")
}

do {
    try await run()
    await DemoPresenter.exit(0)
} catch {
    FileHandle.standardError.write(Data("RichMedia: \(error)\n".utf8))
    await DemoPresenter.exit(1)
}
