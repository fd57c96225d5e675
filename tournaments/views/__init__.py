"""Views, thin: parse → service/selector → render. Split by who uses them."""
