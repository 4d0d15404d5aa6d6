extension FeedValues {
    /// Show notes as plain text: tags stripped, entities decoded, `<br>`, paragraphs, list items and other
    /// blocks turned into line breaks (at most one blank line in a row), runs of spaces collapsed, the ends
    /// trimmed. `<script>`, `<style>`, `<template>` and `<head>` contents and comments are dropped.
    ///
    /// Text with no markup at all keeps its own line breaks; inside HTML, source line breaks are spaces.
    /// Nothing is fetched or expanded beyond the built-in entity table, and the work is linear in the input.
    public static func plainText(fromHTML html: String) -> String {
        html.withUTF8Bytes { plainText(bytes: $0) }
    }

    static func plainText(bytes: UnsafeBufferPointer<UInt8>) -> String {
        var converter = HTMLToText(bytes)
        converter.run()
        return String(decoding: converter.writer.out, as: UTF8.self)
    }
}
