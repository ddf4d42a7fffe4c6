public import DBus

/// The names of the freedesktop notification service (Desktop Notifications spec 1.2).
public enum NotificationsInterface {
    /// The well-known bus name a notification server owns.
    public static let busName = "org.freedesktop.Notifications"
    /// The interface name.
    public static let name = "org.freedesktop.Notifications"
    /// The object path of the server.
    public static let path = try! DBusObjectPath("/org/freedesktop/Notifications")

    /// The `<interface>` element describing the service, including the KDE inline-reply
    /// signal. `dbus/org.freedesktop.Notifications.xml` holds the same text, and a test keeps
    /// the two equal.
    public static let introspectionXML = """
          <interface name="org.freedesktop.Notifications">
            <method name="Notify">
              <arg name="app_name" type="s" direction="in"/>
              <arg name="replaces_id" type="u" direction="in"/>
              <arg name="app_icon" type="s" direction="in"/>
              <arg name="summary" type="s" direction="in"/>
              <arg name="body" type="s" direction="in"/>
              <arg name="actions" type="as" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/>
              <arg name="expire_timeout" type="i" direction="in"/>
              <arg name="id" type="u" direction="out"/>
            </method>
            <method name="CloseNotification">
              <arg name="id" type="u" direction="in"/>
            </method>
            <method name="GetCapabilities">
              <arg name="capabilities" type="as" direction="out"/>
            </method>
            <method name="GetServerInformation">
              <arg name="name" type="s" direction="out"/>
              <arg name="vendor" type="s" direction="out"/>
              <arg name="version" type="s" direction="out"/>
              <arg name="spec_version" type="s" direction="out"/>
            </method>
            <signal name="NotificationClosed">
              <arg name="id" type="u"/>
              <arg name="reason" type="u"/>
            </signal>
            <signal name="ActionInvoked">
              <arg name="id" type="u"/>
              <arg name="action_key" type="s"/>
            </signal>
            <signal name="ActivationToken">
              <arg name="id" type="u"/>
              <arg name="activation_token" type="s"/>
            </signal>
            <signal name="NotificationReplied">
              <arg name="id" type="u"/>
              <arg name="text" type="s"/>
            </signal>
          </interface>
        """

    /// The signature of Notify's arguments.
    public static let notifySignature = "susssasa{sv}i"
}
