# Run by calibre-debug: builds a Calibre library through calibre's own database API, from books
# given as JSON lines on standard input, so that calibre itself writes metadata.db and the folders.
import io
import json
import sys
import time

from calibre.db.legacy import LibraryDatabase
from calibre.ebooks.metadata.book.base import Metadata

# Books created between two writes of the batch's other fields.
BATCH = 1000

library = sys.argv[-1]
started = time.time()
cache = LibraryDatabase(library).new_api
count = 0


def finish(batch):
    # The batch's other fields at once: calibre's per-call work (dirtied marks, cache resets) is
    # paid once a batch rather than once a field and book, most of the cost of a book added alone.
    for name in ('comments', 'publisher', 'pubdate', 'timestamp', 'identifiers'):
        cache.set_field(name, {book_id: book[name] for book_id, book in batch.items()})
    # calibre keeps a set of changed books, emptied as its GUI's backup thread writes each one's
    # metadata.opf, and every change copies the set whole: left full, a build is quadratic. No
    # OPF is written (neither server reads them; writing them would double the build).
    for book_id in batch:
        cache.clear_dirtied(book_id, None)


with cache.backend.conn:
    batch = {}
    for line in sys.stdin:
        book = json.loads(line)
        book_id = cache.create_book_entry(Metadata(book['title'], book['authors']), apply_import_tags=False)
        for fmt in book['formats']:
            cache.add_format(book_id, fmt, io.BytesIO(b''), run_hooks=False)
        book['identifiers'] = {'isbn': book['isbn']}
        batch[book_id] = book
        count += 1
        if len(batch) == BATCH:
            finish(batch)
            batch = {}
        if count % 10000 == 0:
            print(f'  calibre: {count} books, {time.time() - started:.0f} s', file=sys.stderr, flush=True)
    if batch:
        finish(batch)
cache.close()
print(json.dumps({'books': count, 'seconds': round(time.time() - started, 1)}))
