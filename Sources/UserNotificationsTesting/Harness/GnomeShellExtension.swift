/// The GNOME Shell 43 extension the harness installs in ``GnomeShellServer``'s temporary
/// home: it serves `org.desktopnotifications.Harness` on the session bus, so that a test can
/// read the message tray and act on it as a person would.
///
/// It reaches the shell's freedesktop notification daemon (`Main.notificationDaemon`), whose
/// notifications are keyed by the id the client got from Notify: `List` returns them as
/// JSON (title, body, the source's title and app id, the button labels), `Activate` clicks
/// the body, `InvokeAction` clicks a button by its label (and, like the banner, closes a
/// notification that is not resident), `Dismiss` is the close button. The `Gtk` methods do the
/// same for the notifications of `org.gtk.Notifications` (`Main.notificationDaemon`'s
/// GTK daemon), keyed by app id and notification id (`ListGtk` adds the type of the icon the
/// shell holds and a `GBytesIcon`'s size): a click there runs the shell's own code,
/// which activates an `app.*` action through `org.freedesktop.Application.ActivateAction`.
/// `ExpandBanner` opens the banner of a notification, by title, as hovering it does (its buttons
/// show), dismissing any other notification in the banner; `Screenshot` writes the whole stage to a PNG through the shell's own `Shell.Screenshot`
/// (the D-Bus `org.gnome.Shell.Screenshot` refuses callers outside the shell) and returns the
/// banner's geometry, for the gallery.
enum GnomeShellExtension {
    /// The extension's folder name and uuid.
    static let uuid = "harness@desktopnotifications.example"

    /// The well-known name, object path and interface it serves.
    static let busName = "org.desktopnotifications.Harness"
    static let objectPath = "/org/desktopnotifications/Harness"

    static let metadata = """
        {
          "uuid": "\(uuid)",
          "name": "DesktopNotifications test harness",
          "description": "Reads and clicks the message tray for the tests, over D-Bus.",
          "shell-version": ["43"]
        }

        """

    /// Turns the extension on through the keyfile GSettings backend.
    static let settings = """
        [org/gnome/shell]
        enabled-extensions=['\(uuid)']
        disable-user-extensions=false

        """

    static let script = #"""
        /* exported init */
        // Serves org.desktopnotifications.Harness: the tests read the message tray and act on
        // it as a person would (a click on the body, a button, the close button).
        const { Gio, GLib, Shell } = imports.gi;
        const Main = imports.ui.main;
        const MessageTray = imports.ui.messageTray;

        const INTERFACE = `<node>
          <interface name="org.desktopnotifications.Harness">
            <method name="List"><arg type="s" direction="out" name="json"/></method>
            <method name="Activate"><arg type="u" direction="in" name="id"/></method>
            <method name="InvokeAction"><arg type="u" direction="in" name="id"/><arg type="s" direction="in" name="label"/></method>
            <method name="Dismiss"><arg type="u" direction="in" name="id"/></method>
            <method name="ListGtk"><arg type="s" direction="in" name="app"/><arg type="s" direction="out" name="json"/></method>
            <method name="ActivateGtk"><arg type="s" direction="in" name="app"/><arg type="s" direction="in" name="id"/></method>
            <method name="InvokeGtkAction"><arg type="s" direction="in" name="app"/><arg type="s" direction="in" name="id"/><arg type="s" direction="in" name="label"/></method>
            <method name="ExpandBanner"><arg type="s" direction="in" name="title"/></method>
            <method name="Screenshot"><arg type="s" direction="in" name="path"/><arg type="s" direction="in" name="title"/><arg type="i" direction="out" name="x"/><arg type="i" direction="out" name="y"/><arg type="i" direction="out" name="width"/><arg type="i" direction="out" name="height"/></method>
          </interface>
        </node>`;

        function fdoNotifications() {
            return Main.notificationDaemon._fdoNotificationDaemon._notifications;
        }

        function notification(id) {
            const ndata = fdoNotifications()[id];
            if (!ndata || !ndata.notification)
                throw new GLib.Error(Gio.DBusError, Gio.DBusError.INVALID_ARGS, `no notification ${id}`);
            return ndata.notification;
        }

        function gtkNotifications(app) {
            const source = Main.notificationDaemon._gtkNotificationDaemon._sources[app];
            return source ? source._notifications : {};
        }

        function gtkNotification(app, id) {
            const n = gtkNotifications(app)[id];
            if (!n)
                throw new GLib.Error(Gio.DBusError, Gio.DBusError.INVALID_ARGS, `no notification ${id} of ${app}`);
            return n;
        }

        function click(n, label) {
            const action = n.actions.find(candidate => candidate.label === label);
            if (!action)
                throw new GLib.Error(Gio.DBusError, Gio.DBusError.INVALID_ARGS, `no button ${label}`);
            action.callback();
            if (!n.resident)
                n.destroy();
        }

        class Harness {
            List() {
                const shown = [];
                for (const [id, ndata] of Object.entries(fdoNotifications())) {
                    const n = ndata.notification;
                    if (!n)
                        continue;
                    shown.push({
                        id: Number(id),
                        title: n.title || '',
                        body: n.bannerBodyText || '',
                        source: n.source ? n.source.title || '' : '',
                        app: n.source && n.source.app ? n.source.app.get_id() : '',
                        actions: n.actions.map(action => action.label),
                    });
                }
                return JSON.stringify(shown);
            }

            Activate(id) {
                notification(id).activate();
            }

            InvokeAction(id, label) {
                click(notification(id), label);
            }

            ListGtk(app) {
                const shown = [];
                for (const [id, n] of Object.entries(gtkNotifications(app))) {
                    shown.push({
                        id,
                        title: n.title || '',
                        body: n.bannerBodyText || '',
                        actions: n.actions.map(action => action.label),
                        icon: n.gicon ? n.gicon.constructor.$gtype.name : '',
                        iconBytes: n.gicon instanceof Gio.BytesIcon ? n.gicon.get_bytes().get_size() : 0,
                    });
                }
                return JSON.stringify(shown);
            }

            ActivateGtk(app, id) {
                gtkNotification(app, id).activate();
            }

            InvokeGtkAction(app, id, label) {
                click(gtkNotification(app, id), label);
            }

            Dismiss(id) {
                notification(id).destroy(MessageTray.NotificationDestroyedReason.DISMISSED);
            }

            // Opens the banner of the notification titled title as hovering it does: its
            // buttons show. Another notification in the banner (the shell's own "Logged in as
            // a privileged user" and "Screen Lock disabled" when it runs as root) is dismissed;
            // the title's notification is put first in the queue when it is not there (the tray
            // queues three at most and leaves a fourth for the message list), and the tray is
            // asked to show the queue (a dismissed banner leaves it until something else
            // happens). Fails, to be called again, until the banner is open.
            ExpandBanner(title) {
                const tray = Main.messageTray;
                const shown = tray._banner ? tray._notification : null;
                if (shown && shown.title === title) {
                    tray._expandBanner(false);
                    return;
                }
                if (shown) {
                    shown.destroy(MessageTray.NotificationDestroyedReason.DISMISSED);
                    throw new GLib.Error(Gio.DBusError, Gio.DBusError.FAILED, `the banner showed ${shown.title}: dismissed`);
                }
                const ours = Object.values(fdoNotifications()).map(ndata => ndata.notification).find(n => n && n.title === title);
                if (!ours)
                    throw new GLib.Error(Gio.DBusError, Gio.DBusError.FAILED, `no notification titled ${title}`);
                // A banner that showed and timed out before it was pictured left ours
                // acknowledged, and the tray drops acknowledged notifications from its queue.
                if (!tray._notificationQueue.includes(ours)) {
                    ours.acknowledged = false;
                    tray._notificationQueue.unshift(ours);
                }
                tray._updateState();
                throw new GLib.Error(Gio.DBusError, Gio.DBusError.FAILED,
                    `no banner yet (state ${tray._notificationState}, queued: ${tray._notificationQueue.map(n => n.title)})`);
            }

            // The whole stage as a PNG at path, and the place on it of the banner of the
            // notification titled title (-1s when the banner shows none or another).
            ScreenshotAsync([path, title], invocation) {
                const tray = Main.messageTray;
                const banner = tray._banner && tray._notification && tray._notification.title === title ? tray._banner : null;
                let area = [-1, -1, -1, -1];
                if (banner) {
                    const [x, y] = banner.get_transformed_position();
                    const [width, height] = banner.get_transformed_size();
                    area = [x, y, width, height].map(Math.round);
                }
                try {
                    const stream = Gio.File.new_for_path(path).replace(null, false, Gio.FileCreateFlags.NONE, null);
                    new Shell.Screenshot().screenshot(false, stream, (shooter, result) => {
                        try {
                            shooter.screenshot_finish(result);
                            stream.close(null);
                            invocation.return_value(new GLib.Variant('(iiii)', area));
                        } catch (e) {
                            invocation.return_dbus_error('org.desktopnotifications.Harness.Error', `${e}`);
                        }
                    });
                } catch (e) {
                    invocation.return_dbus_error('org.desktopnotifications.Harness.Error', `${e}`);
                }
            }
        }

        class Extension {
            enable() {
                this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, new Harness());
                this._object.export(Gio.DBus.session, '/org/desktopnotifications/Harness');
                this._name = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.desktopnotifications.Harness',
                    Gio.BusNameOwnerFlags.NONE, null, null);
            }

            disable() {
                Gio.bus_unown_name(this._name);
                this._object.unexport();
                this._object = null;
            }
        }

        function init() {
            return new Extension();
        }

        """#
}
