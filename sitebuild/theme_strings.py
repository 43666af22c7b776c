"""The theme's words that the site says itself, translated like every other UI string (locales/<lang>.po).

Material for MkDocs ships its own interface strings per language; a few of
them read wrong to native readers ("Tilbage til start" is Danish for "back to
the start page", not "to the top"; "Piede" is an Italian foot, not a page
footer), and some are not translated at all (the footer's "Made with", the
404 page's "404 - Not found", the heading anchors' title). These are put
through the site's own catalogs instead, so that a translator fixes them
where every other string is fixed. overrides/partials/language.html asks
THEME_KEYS first, overrides/partials/copyright.html and overrides/404.html
use the messages below; hooks/theme_strings.py hands the templates the
translator.
"""

from __future__ import annotations

from calculators.ui.messages import N_

# Material's translation keys (partials/languages/<lang>.html) the site words itself.
THEME_KEYS = {
    # TRANSLATORS: the button that scrolls back to the top of the page
    "top": N_("Back to top"),
    # TRANSLATORS: the accessible name of the page's footer (read by screen readers)
    "footer": N_("Footer"),
    # TRANSLATORS: shown in the search box while the search index loads
    "search.result.initializer": N_("Loading the search"),
}

# TRANSLATORS: the footer's credit; {tool} is the link "Material for MkDocs", a product name
MADE_WITH = N_("Made with {tool}")
# TRANSLATORS: the title and heading of the page a mistyped address leads to
NOT_FOUND = N_("Page not found")
NOT_FOUND_TEXT = N_("There is no page at this address (any more).")
HOME = N_("Go to the start page")
# TRANSLATORS: the tooltip of the ¶ sign after each heading, which links to that section
PERMALINK = N_("Link to this section")
