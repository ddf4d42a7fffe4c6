#!/usr/bin/python3
"""Acts on a Plasma 5 notification popup as a person would, over AT-SPI.

plasmashell must run with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 on a session bus that has an
accessibility bus (org.a11y.Bus). The popup is found by its summary (the `notification`
object's name); its buttons are the push buttons of the same window.

    plasma_popup.py SUMMARY press LABEL     press the popup's button LABEL
    plasma_popup.py SUMMARY reply TEXT      press Reply, type TEXT into the field, press Send;
                                            print the popup's visible labels (the field's
                                            placeholder among them) as they were before Send
    plasma_popup.py SUMMARY close           press the popup's close button
    plasma_popup.py SUMMARY buttons         print the popup's button labels, one a line

Exits 0 on success; 2 when the popup, a button or the field is not found within the
timeout (PLASMA_POPUP_TIMEOUT seconds, 20 by default), with the reason on stderr.
"""
import os
import sys
import time
import warnings

warnings.simplefilter("ignore", DeprecationWarning)
import gi  # noqa: E402

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

TIMEOUT = float(os.environ.get("PLASMA_POPUP_TIMEOUT", "20"))


class NotFound(Exception):
    pass


def children(node):
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        if child is not None:
            yield child


def walk(node, depth=0):
    if depth > 40:
        return
    yield node
    for child in children(node):
        yield from walk(child, depth + 1)


def popup_window(summary):
    """The window (a direct child of plasmashell's application) holding the notification."""
    desktop = Atspi.get_desktop(0)
    for app in children(desktop):
        if app.get_name() != "plasmashell":
            continue
        for window in children(app):
            for node in walk(window):
                if node.get_role() == Atspi.Role.NOTIFICATION and node.get_name() == summary:
                    return window
    return None


def wait_for(what, find):
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            found = find()
        except gi.repository.GLib.Error:
            found = None
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise NotFound(what)
        time.sleep(0.2)


def buttons(window):
    return [n for n in walk(window) if n.get_role() == Atspi.Role.PUSH_BUTTON]


def button(summary, label):
    def find():
        window = popup_window(summary)
        if window is None:
            return None
        return next((b for b in buttons(window) if b.get_name() == label), None)
    return wait_for(f"no button {label!r} on the popup {summary!r}", find)


def press(node):
    action = node.get_action_iface()
    if action is None:
        raise NotFound(f"the button {node.get_name()!r} has no action")
    for i in range(action.get_n_actions()):
        if action.get_action_name(i) == "Press":
            if not action.do_action(i):
                raise NotFound(f"pressing {node.get_name()!r} failed")
            return
    raise NotFound(f"the button {node.get_name()!r} has no Press action")


def reply_field(summary):
    def find():
        window = popup_window(summary)
        if window is None:
            return None
        for node in walk(window):
            # Qt does not list EditableText among the field's interfaces, yet answers it.
            if node.get_role() in (Atspi.Role.TEXT, Atspi.Role.ENTRY):
                states = node.get_state_set()
                if (states.contains(Atspi.StateType.EDITABLE) and states.contains(Atspi.StateType.SHOWING)
                        and not states.contains(Atspi.StateType.READ_ONLY)):
                    return node
        return None
    return wait_for(f"no reply field on the popup {summary!r}", find)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    summary, command = argv[1], argv[2]
    Atspi.init()
    if command == "press" and len(argv) == 4:
        press(button(summary, argv[3]))
    elif command == "reply" and len(argv) == 4:
        press(button(summary, os.environ.get("PLASMA_POPUP_REPLY_LABEL", "Reply")))
        field = reply_field(summary)
        window = popup_window(summary)
        labels = [n.get_name() for n in walk(window) if n.get_role() == Atspi.Role.LABEL
                  and n.get_name() and n.get_state_set().contains(Atspi.StateType.SHOWING)] if window else []
        if not Atspi.EditableText.set_text_contents(field, argv[3]):
            raise NotFound("the reply field refused the text")
        press(button(summary, os.environ.get("PLASMA_POPUP_SEND_LABEL", "Send")))
        for label in labels:
            print(label)
    elif command == "close":
        press(button(summary, "Close"))
    elif command == "buttons":
        window = wait_for(f"no popup {summary!r}", lambda: popup_window(summary))
        for b in buttons(window):
            print(b.get_name())
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except NotFound as error:
        print(f"plasma_popup: {error}", file=sys.stderr)
        sys.exit(2)
