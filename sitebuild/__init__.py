"""Build-only code: page tables, UI strings, glossary. Never shipped to the browser.

macros.py (the MkDocs adapter) calls into this package; the calculators
package stays free of MkDocs, Babel and Jinja so that it runs on Pyodide.
"""
