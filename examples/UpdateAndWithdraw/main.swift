// UpdateAndWithdraw: seed 001's update of a delivered notification by reusing its
// identifier, then its withdrawal.
import ExampleSupport
import Foundation
import UserNotifications

@MainActor
func run() async throws {
    _ = try await DemoPresenter.prepare(appID: "org.desktopnotifications.UpdateAndWithdraw", name: "Update and Withdraw")
    let center = UNUserNotificationCenter.current()
    let identifier = "com.onevcat.usernotification.update"

    let content = UNMutableNotificationContent()
    content.title = "Score"
    content.body = "Home 0 : 0 Away"
    try await center.add(UNNotificationRequest(identifier: identifier, content: content, trigger: nil))
    print("delivered: \(await center.deliveredNotifications().map(\.request.content.body))")

    try await Task.sleep(for: .seconds(1))
    let updated = content.mutableCopy() as! UNMutableNotificationContent
    updated.body = "Home 1 : 0 Away"
    try await center.add(UNNotificationRequest(identifier: identifier, content: updated, trigger: nil))
    print("updated in place: \(await center.deliveredNotifications().map(\.request.content.body))")

    try await Task.sleep(for: .seconds(1))
    center.removeDeliveredNotifications(withIdentifiers: [identifier])
    print("withdrawn: \(await center.deliveredNotifications().count) delivered")
}

do {
    try await run()
    await DemoPresenter.exit(0)
} catch {
    FileHandle.standardError.write(Data("UpdateAndWithdraw: \(error)\n".utf8))
    await DemoPresenter.exit(1)
}
