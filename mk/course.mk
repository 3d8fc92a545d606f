#### Teaching from the book (issue 18; tools/course.py) ######################
# make instructor        build/instructor/ and build/instructor.tar.gz: the
#                        instructor's PDF (the 4-, 8- and 14-week tracks with
#                        pages from the typeset books, the answer keys and
#                        rubrics in both languages), one folder per week and
#                        track (readings, decks, lab, exercises with expected
#                        times, the week's Gradescope package, the quiz if
#                        build/quiz/ exists), every deck and package
# make gradescope        also writes build/gradescope/TRACK-weekN.zip, one
#                        package per week that sets exercises (mk/exercises.mk)
# make course-plan       print the tracks (TRACK=4wk: one)
# The keys live next to their exercises in chapters/*.nw (answerkey blocks);
# every student output leaves them out (tools/nwlang.py strip_answerkeys).

instructor: $(PDFS) slides gradescope quiz
	$(Q)$(PYTHON) tools/course.py instructor

course-plan:
	$(Q)$(PYTHON) tools/course.py plan $(TRACK)

.PHONY: instructor course-plan
