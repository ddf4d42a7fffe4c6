// Seed 004 (004_4823ae5c1a9c9527.txt): a scraped copy of seed 000's post (CSDN, 2017) with its
// quotes mangled; its samples are seed 000's (Seed000Samples.swift). The one snippet seed 000
// does not show is the content carrying userInfo that the userInfo delegate reads back.
import UserNotifications

// MARK: - 对通知进行响应: 在请求中附带一些信息

func seed004ContentWithUserInfo() -> UNMutableNotificationContent { // wrapper: returns the content
let content = UNMutableNotificationContent()
content.title = "Time Interval Notification" // changed: the scrape's &...& quotes restored to "..." (here and below)
content.body = "My first notification"
content.userInfo = ["name": "onevcat"]
return content // wrapper
} // wrapper
