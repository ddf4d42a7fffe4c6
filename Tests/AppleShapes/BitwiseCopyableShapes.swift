// Apple's imported enums and option sets are `BitwiseCopyable`.
import Foundation
import UserNotifications

func requireBitwiseCopyable<Value: BitwiseCopyable>(_: Value.Type) {}

/// Apple's imported enums and option sets are `BitwiseCopyable`.
public func bitwiseCopyableShapes() {
    requireBitwiseCopyable(UNAlertStyle.self)
    requireBitwiseCopyable(UNAuthorizationStatus.self)
    requireBitwiseCopyable(UNNotificationSetting.self)
    requireBitwiseCopyable(UNShowPreviewsSetting.self)
    requireBitwiseCopyable(UNNotificationInterruptionLevel.self)
    requireBitwiseCopyable(UNError.Code.self)
    requireBitwiseCopyable(UNAuthorizationOptions.self)
    requireBitwiseCopyable(UNNotificationActionOptions.self)
    requireBitwiseCopyable(UNNotificationCategoryOptions.self)
    requireBitwiseCopyable(UNNotificationPresentationOptions.self)
    requireBitwiseCopyable(UNNotificationContentExtensionResponseOption.self)
}
