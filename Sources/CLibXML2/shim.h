#ifndef EARSHOT_CLIBXML2_SHIM_H
#define EARSHOT_CLIBXML2_SHIM_H
/* Debian's libxml2 is built with ICU, so encoding.h pulls in the system's <unicode/ucnv.h>,
 * whose UErrorCode clashes with the newer ICU inside Swift's Foundation (a hard error on a
 * clean build). Earshot never touches the ICU members of xmlCharEncodingHandler, so hide them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlmemory.h>
#include <libxml/HTMLparser.h>

/// xmlFree is a global function pointer; Swift sees it as a var, so call through here.
static inline void earshot_xml_free(void *p) { xmlFree(p); }

/// An external-entity loader that refuses everything: libxml2 2.9.14 would otherwise
/// fetch entities when a caller forgets a flag. Install it once, before any parse.
static xmlParserInputPtr earshot_xml_refuse_entity(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    (void)url; (void)id; (void)ctxt;
    return NULL;
}
static inline void earshot_xml_install_safe_loader(void) {
    xmlSetExternalEntityLoader(earshot_xml_refuse_entity);
}
#endif
