"""The one reader of the book's sources.

  tex    the brace parser: macro arguments, comments (every tool uses it)
  lang   two languages, one source: the check, and the one language
         selection the PDF editions and the HTML edition share
  noweb  the chapters as noweb's own front end reads them (chunks, uses,
         identifiers)
  aux    the numbers LaTeX gave the PDF, read from its .aux
  meta   book.toml: title, authors, fonts, the machinery's words
"""
