"""The guide: rules, FAQ, glossary and house-rules pages in Urdu, Hindi and English."""
